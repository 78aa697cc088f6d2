import { expectError } from '../support/expect-error';
import { importDocument } from '../support/fixtures';
import { useScene } from '../support/scene';
import { freshId, seedCardScene } from '../cards/card-fixtures';
import { freshName, tagClient } from './tag-fixtures';

describe('POST, PATCH, DELETE /v1/{team_id}/tags', () => {
  const s = useScene();
  const api = () => tagClient(s.t, s.ws);

  describe('POST', () => {
    it('creates a workspace-wide tag: 201, every field, Location and ETag', async () => {
      const name = `${freshName('Bug Fix')}!`;
      const res = await api().create({ name, color: '#ff0000' }).expect(201);
      const { tag } = res.body;
      expect(tag).toEqual({
        id: expect.stringMatching(/^[0-9]+$/),
        team_id: s.ws.teamId,
        project_id: null,
        name,
        slug: expect.stringMatching(/^bug-fix-[0-9]+-[0-9]+$/),
        color: '#ff0000',
        total_cards: 0,
      });
      expect(res.headers.location).toBe(`/v1/${s.ws.teamId}/tags/${tag.id}`);
      expect(res.headers.etag).toBe('"1"');
    });

    it('creates a project tag, which may share a name with a workspace-wide one', async () => {
      const name = freshName();
      await api().create({ name, color: 'red' }).expect(201);
      const res = await api()
        .create({ name: name.toUpperCase(), color: 'blue', project_id: s.ws.projectId })
        .expect(201);
      expect(res.body.tag).toMatchObject({ project_id: s.ws.projectId, color: 'blue', slug: expect.any(String) });
    });

    it('hands out ids past every tag id, imported ones too, and never one of a deleted tag', async () => {
      const high = String(9_000_000 + Math.floor(Math.random() * 1_000_000));
      await importDocument(s.t.app, {
        tags: [{ team_id: s.ws.teamId, id: high, project_id: null, name: freshName('Imported') }],
      });
      const first = (await api().create({ name: freshName(), color: 'red' }).expect(201)).body.tag.id;
      expect(BigInt(first)).toBeGreaterThan(BigInt(high));
      await api().remove(first).expect(204);
      const second = (await api().create({ name: freshName(), color: 'red' }).expect(201)).body.tag.id;
      expect(BigInt(second)).toBeGreaterThan(BigInt(first));
    });

    it('409 TAG_NAME_TAKEN for a name taken in its scope, ignoring case (Unicode too)', async () => {
      const name = `Ärger ${freshName()}`;
      await api().create({ name, color: 'red' }).expect(201);
      expectError(await api().create({ name: name.toLowerCase(), color: 'red' }), 'TAG_NAME_TAKEN', /workspace-wide/);
      await api().create({ name, color: 'red', project_id: s.ws.projectId }).expect(201);
      expectError(
        await api().create({ name: name.toUpperCase(), color: 'red', project_id: s.ws.projectId }),
        'TAG_NAME_TAKEN',
      );
    });

    it('of two concurrent creates of "Bug" and "bug", one is 201 and the other 409', async () => {
      for (let round = 0; round < 5; round++) {
        const name = freshName('Bug');
        const answers = await Promise.all([
          api().create({ name, color: 'red' }),
          api().create({ name: name.toLowerCase(), color: 'red' }, s.ws.auth.admin),
        ]);
        expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
        expectError(
          answers.find((r) => r.status === 409)!,
          'TAG_NAME_TAKEN',
        );
      }
    });

    it('replays the first answer under its Idempotency-Key, creating one tag', async () => {
      const name = freshName();
      const send = () =>
        s.t.http
          .post(`/v1/${s.ws.teamId}/tags`)
          .set('Authorization', s.ws.auth.member)
          .set('Idempotency-Key', `create-${name}`)
          .send({ name, color: 'red' });
      const first = await send().expect(201);
      const again = await send().expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers.etag).toBe(first.headers.etag);
      const other = await s.t.http
        .post(`/v1/${s.ws.teamId}/tags`)
        .set('Authorization', s.ws.auth.member)
        .set('Idempotency-Key', `create-${name}`)
        .send({ name: `${name}x`, color: 'red' });
      expectError(other, 'IDEMPOTENCY_KEY_REUSED');
    });

    it.each([
      [{ color: 'red' }, 'VALIDATION_FAILED'],
      [{ name: 'x' }, 'VALIDATION_FAILED'],
      [{ name: '', color: 'red' }, 'VALIDATION_FAILED'],
      [{ name: 'x'.repeat(65), color: 'red' }, 'VALIDATION_FAILED'],
      [{ name: null, color: 'red' }, 'VALIDATION_FAILED'],
      [{ name: 7, color: 'red' }, 'VALIDATION_FAILED'],
      [{ name: 'x', color: '' }, 'VALIDATION_FAILED'],
      [{ name: 'x', color: 'r'.repeat(33) }, 'VALIDATION_FAILED'],
      [{ name: 'x', color: 'red;' }, 'VALIDATION_FAILED'],
      [{ name: 'x', color: 'red', project_id: 'a b' }, 'VALIDATION_FAILED'],
      [{ name: 'x', color: 'red', project_id: 3 }, 'VALIDATION_FAILED'],
      [{ name: 'x', color: 'red', slug: 'x' }, 'UNKNOWN_FIELD'],
    ] as const)('400 for %j', async (body, code) => {
      expectError(await api().create(body), code);
    });

    it('accepts 64 code points of astral characters', async () => {
      const name = '😀'.repeat(60) + String(Date.now() % 10_000).padStart(4, '0');
      await api().create({ name, color: 'red' }).expect(201);
    });

    it('404 PROJECT_NOT_FOUND for an unknown project', async () => {
      expectError(await api().create({ name: freshName(), color: 'red', project_id: 'nope' }), 'PROJECT_NOT_FOUND');
    });

    it('403 for guests and viewers, and for tokens of another workspace; 401 without a token', async () => {
      for (const role of ['guest', 'viewer'] as const)
        expectError(await api().create({ name: freshName(), color: 'red' }, s.ws.auth[role]), 'ACCESS_DENIED');
      expectError(await api().create({ name: freshName(), color: 'red' }, s.other.auth.owner), 'ACCESS_DENIED');
      expectError(await s.t.http.post(`/v1/${s.ws.teamId}/tags`).send({ name: 'x', color: 'red' }), 'UNAUTHENTICATED');
      for (const role of ['owner', 'admin', 'member'] as const)
        await api().create({ name: freshName(), color: 'red' }, s.ws.auth[role]).expect(201);
    });
  });

  describe('PATCH', () => {
    const made = async (project_id: string | null = null) =>
      (await api().create({ name: freshName(), color: 'red', project_id }).expect(201)).body.tag;

    it('renames (slug follows) and recolours; the ETag moves; a no-op keeps it', async () => {
      const tag = await made();
      const name = freshName('Needs Review');
      const res = await api().update(tag.id, { name, color: 'green' }).expect(200);
      expect(res.body.tag).toEqual({ ...tag, name, color: 'green', slug: expect.stringMatching(/^needs-review-/) });
      expect(res.headers.etag).toBe('"2"');
      const same = await api().update(tag.id, { name, color: 'green' }).expect(200);
      expect(same.headers.etag).toBe('"2"');
      const empty = await api().update(tag.id, {}).expect(200);
      expect(empty.body.tag).toEqual(res.body.tag);
      const own = await api().update(tag.id, { name: name.toUpperCase() }).expect(200);
      expect(own.body.tag.name).toBe(name.toUpperCase());
    });

    it('409 for a name taken in its scope; a name of another scope is free', async () => {
      const a = await made();
      const b = await made();
      const p = await made(s.ws.projectId);
      expectError(await api().update(b.id, { name: a.name.toUpperCase() }), 'TAG_NAME_TAKEN');
      await api().update(p.id, { name: a.name }).expect(200);
    });

    it('project_id: its own value is accepted, another is 400 TAG_PROJECT_FIXED', async () => {
      const tag = await made();
      await api().update(tag.id, { project_id: null, color: 'blue' }).expect(200);
      expectError(await api().update(tag.id, { project_id: s.ws.projectId }), 'TAG_PROJECT_FIXED');
      const p = await made(s.ws.projectId);
      await api().update(p.id, { project_id: s.ws.projectId }).expect(200);
      expectError(await api().update(p.id, { project_id: null }), 'TAG_PROJECT_FIXED');
    });

    it('If-Match: the current ETag writes, a stale one is 412 and changes nothing', async () => {
      const tag = await made();
      const patch = (etag: string, color: string) =>
        s.t.http
          .patch(`/v1/${s.ws.teamId}/tags/${tag.id}`)
          .set('Authorization', s.ws.auth.member)
          .set('If-Match', etag)
          .send({ color });
      await patch('"1"', 'blue').expect(200);
      expectError(await patch('"1"', 'green'), 'PRECONDITION_FAILED');
      const { body } = await api().update(tag.id, {}).expect(200);
      expect(body.tag.color).toBe('blue');
    });

    it('400s, 403s and 404s', async () => {
      const tag = await made();
      expectError(await api().update(tag.id, { name: null }), 'VALIDATION_FAILED');
      expectError(await api().update(tag.id, { color: 'a b' }), 'VALIDATION_FAILED');
      expectError(await api().update(tag.id, { total_cards: 3 }), 'UNKNOWN_FIELD');
      expectError(await api().update('x1', { color: 'red' }), 'INVALID_PATH_PARAMETER');
      expectError(await api().update(freshId() + '999', { color: 'red' }), 'TAG_NOT_FOUND');
      expectError(await api().update('99999999999999999999'.slice(0, 19), { color: 'red' }), 'TAG_NOT_FOUND');
      for (const role of ['guest', 'viewer'] as const)
        expectError(await api().update(tag.id, { color: 'blue' }, s.ws.auth[role]), 'ACCESS_DENIED');
      expectError(await api().update(tag.id, { color: 'blue' }, s.other.auth.owner), 'ACCESS_DENIED');
    });
  });

  describe('DELETE', () => {
    it('takes the tag off every card, moving each card version, then 404s', async () => {
      const a = await seedCardScene(s.t.app, s.ws);
      const b = await seedCardScene(s.t.app, s.ws);
      const tag = (await api().create({ name: freshName(), color: 'red' }).expect(201)).body.tag;
      await api().attach(a.cardId, [a.usable[0], tag.id, a.usable[2]]).expect(204);
      await api().attach(b.cardId, [tag.id]).expect(204);
      const before = await s.t.http.get(`/v1/${s.ws.teamId}/cards/${a.cardId}`).set('Authorization', s.ws.auth.owner);
      expect((await api().list({ all: 'true', limit: '500' })).body.tags).toContainEqual({ ...tag, total_cards: 2 });
      await api().remove(tag.id).expect(204);
      const after = await s.t.http.get(`/v1/${s.ws.teamId}/cards/${a.cardId}`).set('Authorization', s.ws.auth.owner);
      expect(after.body.card.tags.map((t: { id: string }) => t.id)).toEqual([a.usable[0], a.usable[2]]);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect((await api().card(b.cardId)).tags).toEqual([]);
      expectError(await api().remove(tag.id), 'TAG_NOT_FOUND');
      expectError(await api().untag(a.cardId, tag.id), 'TAG_NOT_FOUND');
    });

    it('If-Match and Idempotency-Key', async () => {
      const tag = (await api().create({ name: freshName(), color: 'red' }).expect(201)).body.tag;
      const del = (headers: Record<string, string>) =>
        s.t.http.delete(`/v1/${s.ws.teamId}/tags/${tag.id}`).set('Authorization', s.ws.auth.member).set(headers);
      expectError(await del({ 'If-Match': '"7"' }), 'PRECONDITION_FAILED');
      await del({ 'If-Match': '"1"', 'Idempotency-Key': `del-${tag.id}` }).expect(204);
      const again = await del({ 'Idempotency-Key': `del-${tag.id}` }).expect(204);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('403 for guests and viewers, 404 for an unknown tag, 400 for a malformed id', async () => {
      const tag = (await api().create({ name: freshName(), color: 'red' }).expect(201)).body.tag;
      for (const role of ['guest', 'viewer'] as const)
        expectError(await api().remove(tag.id, s.ws.auth[role]), 'ACCESS_DENIED');
      expectError(await api().remove(tag.id, s.other.auth.member), 'ACCESS_DENIED');
      expectError(await api().remove(`${freshId()}999`), 'TAG_NOT_FOUND');
      expectError(await api().remove('1e3'), 'INVALID_PATH_PARAMETER');
      await api().remove(tag.id, s.ws.auth.admin).expect(204);
    });
  });
});
