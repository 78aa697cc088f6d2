import { expectError } from '../support/expect-error';
import { useScene } from '../support/scene';
import { importDocument } from '../support/fixtures';
import { freshId, seedCardScene } from './card-fixtures';

describe('POST /v1/{team_id}/cards/{card_id}/tags', () => {
  const s = useScene();

  const attach = (cardId: string, body: unknown, auth = s.ws.auth.member, team = s.ws.teamId) =>
    s.t.http
      .post(`/v1/${team}/cards/${cardId}/tags`)
      .set('Authorization', auth)
      .send(body as object);
  const card = async (cardId: string) =>
    (await s.t.http.get(`/v1/${s.ws.teamId}/cards/${cardId}`).set('Authorization', s.ws.auth.member).expect(200)).body
      .card;
  const tagIds = async (cardId: string) => (await card(cardId)).tags.map((tag: { id: string }) => tag.id);

  describe('success', () => {
    it('attaches id and ids as their union, in the order given, with 204 and no body', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      const res = await attach(cardId, { id: usable[2], ids: [usable[0], usable[2], usable[1], usable[0]] }).expect(
        204,
      );
      expect(res.text).toBe('');
      expect(await tagIds(cardId)).toEqual([usable[2], usable[0], usable[1]]);
    });

    it('treats attaching an attached tag as success and keeps the first attach order', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      await attach(cardId, { id: usable[1] }).expect(204);
      await attach(cardId, { ids: [usable[0], usable[1]] }).expect(204);
      expect(await tagIds(cardId)).toEqual([usable[1], usable[0]]);
    });

    it('bumps time_updated and user_updated only when something was attached', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      const before = await card(cardId);
      await attach(cardId, { id: usable[0] }, s.ws.auth.oauth).expect(204);
      const after = await card(cardId);
      expect(after.time_updated).toBeGreaterThan(before.time_updated);
      expect(after.user_updated).toEqual({
        user_id: s.ws.users.member,
        type: 'user',
        source: { type: 'oauth', client_id: 'client-42' },
      });
      await attach(cardId, { ids: [usable[0]] }, s.ws.auth.admin).expect(204);
      expect(await card(cardId)).toEqual(after);
    });

    it('lets owner, admin and member tag any card, and a guest a card that lists them', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      for (const [n, role] of (['owner', 'admin', 'member', 'guest'] as const).entries()) {
        await attach(cardId, { id: usable[n] }, s.ws.auth[role]).expect(204);
      }
      expect(await tagIds(cardId)).toEqual(usable);
    });

    it('leaves each tag attached once, with exact counts, after 20 concurrent overlapping requests', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      const bodies = Array.from({ length: 20 }, (_, n) => ({ ids: [usable[n % 4], usable[(n + 1) % 4]] }));
      const statuses = (await Promise.all(bodies.map((b) => attach(cardId, b)))).map((r) => r.status);
      expect(statuses).toEqual(bodies.map(() => 204));
      const { tags } = await card(cardId);
      expect(tags.map((tag: { id: string }) => tag.id).sort()).toEqual([...usable].sort());
      for (const tag of tags) expect(tag.total_cards).toBe(1);
    });

    it('treats ids with leading zeros as the same tag', async () => {
      const { cardId, usable } = await seedCardScene(s.t.app, s.ws);
      await attach(cardId, { id: `0${usable[0]}`, ids: [usable[0], `00${usable[0]}`] }).expect(204);
      expect(await tagIds(cardId)).toEqual([usable[0]]);
    });

    it('accepts exactly 100 distinct ids', async () => {
      const { cardId } = await seedCardScene(s.t.app, s.ws);
      const ids = Array.from({ length: 100 }, () => freshId());
      await importDocument(s.t.app, {
        tags: ids.map((id) => ({ team_id: s.ws.teamId, id, project_id: null, name: `Bulk ${id}` })),
      });
      await attach(cardId, { ids: [...ids, ...ids] }).expect(204);
      expect(await tagIds(cardId)).toEqual(ids);
    });
  });

  describe('refusals change nothing', () => {
    let scene: Awaited<ReturnType<typeof seedCardScene>>;
    let before: object;
    beforeAll(async () => {
      scene = await seedCardScene(s.t.app, s.ws);
      await attach(scene.cardId, { id: scene.usable[0] }).expect(204);
      before = await card(scene.cardId);
    });
    afterEach(async () => expect(await card(scene.cardId)).toEqual(before));

    it.each([
      ['neither id nor ids', {}, 'TAG_IDS_MISSING', /id, ids or both/],
      ['an empty ids', { ids: [] }, 'TAG_IDS_MISSING', /id, ids or both/],
      ['id null', { id: null }, 'VALIDATION_FAILED', /^id /],
      ['id a number', { id: 5 }, 'VALIDATION_FAILED', /^id must be a string/],
      ['id not numerical', { id: 'abc' }, 'VALIDATION_FAILED', /^id must be a numerical string/],
      ['ids not an array', { ids: '1' }, 'VALIDATION_FAILED', /^ids must be an array/],
      ['an ids entry not numerical', { ids: ['1', 'x'] }, 'VALIDATION_FAILED', /ids must be a numerical string/],
      ['an ids entry a number', { ids: [1] }, 'VALIDATION_FAILED', /ids/],
      ['an unknown field', { tag: '1' }, 'UNKNOWN_FIELD', /tag/],
    ] as const)('rejects %s with 400', async (_, body, code, message) => {
      expectError(await attach(scene.cardId, body), code, message);
    });

    it('rejects 101 distinct ids with the limit in the message', async () => {
      const ids = Array.from({ length: 101 }, (_, n) => String(900000 + n));
      expectError(await attach(scene.cardId, { ids }), 'TAG_IDS_TOO_MANY', /101.*100/);
    });

    it('answers 404 naming every unknown id, and attaches none of the known ones', async () => {
      const res = await attach(scene.cardId, {
        ids: [scene.usable[1], '999999999', scene.foreign, '99999999999999999999'.slice(0, 19)],
      });
      expectError(res, 'TAG_NOT_FOUND', new RegExp(`999999999.*${scene.foreign}|${scene.foreign}.*999999999`));
      expect(res.body.error.message).toContain('9999999999999999999');
      expect(res.body.error.message).not.toContain(scene.usable[1]);
    });

    it("answers 404 for another workspace's tag with the same id", async () => {
      const foreignTag = freshId();
      await importDocument(s.t.app, {
        tags: [{ team_id: s.other.teamId, id: foreignTag, project_id: null, name: 'theirs' }],
      });
      expectError(await attach(scene.cardId, { id: foreignTag }), 'TAG_NOT_FOUND', foreignTag);
    });

    it('answers 404 for an unknown card, a card of another workspace and one too large for the column', async () => {
      expectError(await attach('424242424242', { id: scene.usable[1] }), 'CARD_NOT_FOUND', /424242424242/);
      expectError(await attach('9999999999999999999', { id: scene.usable[1] }), 'CARD_NOT_FOUND');
      const theirs = await seedCardScene(s.t.app, s.other);
      expectError(await attach(theirs.cardId, { id: scene.usable[1] }), 'CARD_NOT_FOUND');
    });

    it('answers 400 for a malformed card_id or team_id', async () => {
      expectError(await attach('12a', { id: scene.usable[1] }), 'INVALID_PATH_PARAMETER', /card_id/);
      expectError(await attach(scene.cardId, { id: scene.usable[1] }, s.ws.auth.member, 'bad-team'), 'INVALID_TEAM_ID');
    });

    it('answers 401 without a token, 403 for a viewer, another workspace, and a guest not on the card', async () => {
      expectError(
        await s.t.http.post(`/v1/${s.ws.teamId}/cards/${scene.cardId}/tags`).send({ id: scene.usable[1] }),
        'UNAUTHENTICATED',
      );
      expectError(
        await attach(scene.cardId, { id: scene.usable[1] }, s.ws.auth.viewer),
        'ACCESS_DENIED',
        'You do not have access to this resource',
      );
      expectError(await attach(scene.cardId, { id: scene.usable[1] }, s.other.auth.owner), 'ACCESS_DENIED');
      const unlisted = await seedCardScene(s.t.app, s.ws, { guestIsMember: false });
      expectError(await attach(unlisted.cardId, { id: unlisted.usable[0] }, s.ws.auth.guest), 'ACCESS_DENIED');
      expect(await tagIds(unlisted.cardId)).toEqual([]);
    });

    it('checks the role before the body', async () => {
      expectError(await attach(scene.cardId, { id: 'not-a-number' }, s.ws.auth.viewer), 'ACCESS_DENIED');
    });
  });
});
