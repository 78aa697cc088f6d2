import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { EVENT_RENDERERS, EventRenderers, renderEvent, StoredEvent } from '../../src/webhooks/event-payload';
import { freshId, seedCardScene } from '../cards/card-fixtures';
import { seedTemplate } from '../notes/note-template-fixtures';
import { seedFamily, seedPages } from '../pages/page-fixtures';
import { importDocument, seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { Receiver, Received, verify, WEBHOOK_TEST_ENV } from './receiver';
import { ofTeam, startAppAndReceiver, stopAppAndReceiver, subscribe } from './webhook-fixtures';

/** Columns every real change writes: an event's `previous` holds them besides the fields that changed. */
const WRITE_STAMPS = ['time_updated', 'updated_by', 'version'];

describe('Change events (e2e, a real receiver on loopback)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => ({ t, receiver } = await startAppAndReceiver()));
  afterAll(() => stopAppAndReceiver(t, receiver));

  const ofPage = (ws: Workspace, id: string) => (e: Received['event']) =>
    e.data.team_id === ws.teamId && (e.data.page as { id: string } | undefined)?.id === id;

  /** The events stored for a workspace (the outbox), whether or not delivered yet. */
  const stored = async (ws: Workspace) =>
    t.app.get(DataSource).query<unknown[]>(`SELECT type FROM webhook_events WHERE team_id = $1`, [ws.teamId]);

  it('page.updated: signed, verified with standardwebhooks, with changed and the page as GET shows it', async () => {
    const ws = await seedWorkspace(t.app);
    const { secret } = await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{ title: 'Before' }]);
    const patched = await t.http
      .patch(`/v1/${ws.teamId}/pages/${page}`)
      .set('Authorization', ws.auth.agent)
      .send({ title: 'After', font: 'serif' })
      .expect(200);

    const [delivery] = await receiver.waitFor(1, ofTeam(ws));
    expect(verify(secret, delivery)).toEqual(delivery.event);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['webhook-id']).toMatch(/^[0-9]+$/);
    expect(Number(delivery.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const { type, timestamp, data } = delivery.event;
    expect(type).toBe('page.updated');
    expect(new Date(timestamp).toISOString()).toBe(timestamp);
    expect(data.team_id).toBe(ws.teamId);
    expect(data.actor).toEqual(patched.body.page.user_updated);
    expect(data.actor).toMatchObject({ type: 'robot', source: { type: 'agent', agent_id: 'agent-7' } });
    expect(data.changed).toEqual(['title', 'font']);
    const { collaboration: _c, bookmarked: _b, is_watching: _w, is_bookmarked: _i, ...shared } = patched.body.page;
    expect(data.page).toEqual(shared);
  });

  it('a webhook another instance created: this one announces its first write there all the same', async () => {
    const other = await createTestApp({ ...WEBHOOK_TEST_ENV, WEBHOOK_DELIVERY: 'false' });
    try {
      const ws = await seedWorkspace(t.app);
      const [page] = await seedPages(t.app, ws, [{}]);
      const write = (title: string) =>
        t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title }).expect(200);
      await write('Before'); // runs the quiet form: no webhook yet
      await subscribe(other, ws, receiver.url);
      await write('After');
      const [delivery] = await receiver.waitFor(1, ofTeam(ws));
      expect(delivery.event.data).toMatchObject({ changed: ['title'], page: { title: 'After' } });
    } finally {
      await other.close();
    }
  });

  it('a move lists parent_page_id and position; a reorder lists position', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const { root, children } = await seedFamily(t.app, ws, 3);
    const [elsewhere] = await seedPages(t.app, ws, [{ title: 'Elsewhere' }]);
    const patch = (body: object) =>
      t.http.patch(`/v1/${ws.teamId}/pages/${children[0]}`).set('Authorization', ws.auth.member).send(body).expect(200);
    await patch({ position: 2 });
    await patch({ parent_page_id: elsewhere });
    const events = await receiver.waitFor(2, ofPage(ws, children[0]));
    expect(events.map((e) => [e.event.type, e.event.data.changed])).toEqual([
      ['page.updated', ['position']],
      ['page.updated', ['parent_page_id', 'position']],
    ]);
    expect(events[1].event.data.page).toMatchObject({ parent_page_id: elsewhere, position: 0 });
    expect(root).toBeDefined();
  });

  it('page.archived and page.unarchived: one event for the root of the subtree, with the page', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const { root, children } = await seedFamily(t.app, ws, 2);
    await t.http.put(`/v1/${ws.teamId}/pages/${root}/archive`).set('Authorization', ws.auth.owner).expect(200);
    const restored = await t.http
      .patch(`/v1/${ws.teamId}/pages/${root}`)
      .set('Authorization', ws.auth.owner)
      .send({ archived: false })
      .expect(200);
    const events = await receiver.waitFor(2, ofTeam(ws));
    expect(events.map((e) => e.event.type)).toEqual(['page.archived', 'page.unarchived']);
    expect(events[0].event.data).not.toHaveProperty('changed');
    expect((events[0].event.data.page as { archived: object }).archived).toMatchObject({ parent_page_id: '' });
    const { collaboration: _c, bookmarked: _b, is_watching: _w, is_bookmarked: _i, ...shared } = restored.body.page;
    expect(events[1].event.data.page).toEqual(shared);
    expect(await stored(ws)).toHaveLength(2); // nothing for the subpages
    expect(children).toHaveLength(2);
  });

  it('note_template.updated: changed and the template without is_favourited', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const id = await seedTemplate(t.app, ws);
    const res = await t.http
      .patch(`/v1/${ws.teamId}/notes/templates/${id}`)
      .set('Authorization', ws.auth.member)
      .send({ context: 'New', is_shared: true, title: 'Standup' })
      .expect(200);
    const [delivery] = await receiver.waitFor(1, ofTeam(ws));
    expect(delivery.event.type).toBe('note_template.updated');
    expect(delivery.event.data.changed).toEqual(['context', 'is_shared']);
    const { is_favourited: _f, ...shared } = res.body.note_template;
    expect(delivery.event.data.note_template).toEqual(shared);
  });

  it('an event keeps only the fields its change changed, and renders as one with the whole old row', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const db = t.app.get(DataSource);
    const template = await seedTemplate(t.app, ws);
    // The second of two children: its title change leaves it where it was, its move changes its position.
    const {
      children: [, page],
    } = await seedFamily(t.app, ws, 2);
    const [elsewhere] = await seedPages(t.app, ws, [{ title: 'Elsewhere' }]);
    // Before each change, its row as an earlier version stored it in `previous`: the whole row.
    const wholeRows: Array<Record<string, unknown>> = [];
    const keepRow = async (table: string, id: string) => {
      const [{ row }] = await db.query(
        `SELECT to_jsonb(r) - 'content' - 'schema' AS row FROM ${table} r WHERE team_id = $1 AND id = $2`,
        [ws.teamId, id],
      );
      wholeRows.push(row as Record<string, unknown>);
    };
    await keepRow('note_templates', template);
    await t.http
      .patch(`/v1/${ws.teamId}/notes/templates/${template}`)
      .set('Authorization', ws.auth.member)
      .send({ context: 'New' })
      .expect(200);
    for (const body of [{ title: 'After', font: 'mono' }, { parent_page_id: elsewhere }]) {
      await keepRow('pages', page);
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send(body).expect(200);
    }
    const events = await db.query<StoredEvent[]>(
      `SELECT team_id, type, actor, resource, previous, time_created AS event_time FROM webhook_events
        WHERE team_id = $1 ORDER BY id`,
      [ws.teamId],
    );
    const kept = events.map((event) => Object.keys(event.previous!).filter((key) => !WRITE_STAMPS.includes(key)));
    expect(kept.slice(0, 2).map((keys) => keys.sort())).toEqual([['context'], ['font', 'position', 'title']]);
    const base = t.app.get(AppConfig).publicPagesBaseUrl;
    const renderers = t.app.get<symbol, EventRenderers>(EVENT_RENDERERS);
    events.forEach((event, i) => {
      // A page's `previous` also carries the rank a move left, whichever version stored it.
      const whole = {
        ...wholeRows[i],
        ...(event.type === 'page.updated' ? { position: event.previous!.position } : {}),
      };
      expect(renderEvent({ ...event, previous: whole }, renderers, base)).toEqual(renderEvent(event, renderers, base));
    });
    expect(events.map((event) => renderEvent(event, renderers, base).data.changed)).toEqual([
      ['context'],
      ['title', 'font'],
      ['parent_page_id', 'position'],
    ]);
  });

  it('card.tags_added: only the ids newly attached, in the order sent', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const scene = await seedCardScene(t.app, ws);
    const attach = (ids: string[]) =>
      t.http.post(`/v1/${ws.teamId}/cards/${scene.cardId}/tags`).set('Authorization', ws.auth.member).send({ ids });
    await attach([scene.usable[1]]).expect(204);
    await attach([scene.usable[2], scene.usable[1], scene.usable[0]]).expect(204);
    const events = await receiver.waitFor(2, ofTeam(ws));
    expect(events.map((e) => e.event.data)).toEqual([
      expect.objectContaining({ card_id: scene.cardId, tag_ids: [scene.usable[1]] }),
      expect.objectContaining({ card_id: scene.cardId, tag_ids: [scene.usable[2], scene.usable[0]] }),
    ]);
    expect(events[0].event.type).toBe('card.tags_added');
    expect(events[0].event.data.actor).toEqual({ type: 'user', user_id: ws.users.member });
  });

  it('nothing for no-ops, 400s, 403s, 404s or the import; the next real change arrives alone', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{ title: 'Same' }]);
    const scene = await seedCardScene(t.app, ws);
    const template = await seedTemplate(t.app, ws, { title: 'Same' });
    const v1 = `/v1/${ws.teamId}`;
    await t.http.patch(`${v1}/pages/${page}`).set('Authorization', ws.auth.member).send({ title: 'Same' }).expect(200);
    await t.http.patch(`${v1}/pages/${page}`).set('Authorization', ws.auth.member).send({}).expect(200);
    await t.http.put(`${v1}/pages/${page}/archive`).set('Authorization', ws.auth.viewer).expect(403);
    await t.http.patch(`${v1}/pages/${page}`).set('Authorization', ws.auth.guest).send({ title: 'X' }).expect(403);
    await t.http.patch(`${v1}/pages/${page}`).set('Authorization', ws.auth.member).send({ title: 7 }).expect(400);
    await t.http.patch(`${v1}/pages/${page}`).set('Authorization', ws.auth.member).send({ position: -1 }).expect(400);
    await t.http
      .patch(`${v1}/pages/${freshId()}9`)
      .set('Authorization', ws.auth.member)
      .send({ title: 'X' })
      .expect(404);
    await t.http
      .patch(`${v1}/notes/templates/${template}`)
      .set('Authorization', ws.auth.member)
      .send({ title: 'Same' })
      .expect(200);
    await t.http
      .patch(`${v1}/notes/templates/${template}`)
      .set('Authorization', ws.auth.admin)
      .send({ title: 'X' })
      .expect(403);
    const attach = (ids: string[]) =>
      t.http.post(`${v1}/cards/${scene.cardId}/tags`).set('Authorization', ws.auth.member).send({ ids });
    await attach([scene.usable[0]]).expect(204);
    await attach([scene.usable[0]]).expect(204); // already attached
    await attach([scene.usable[1], scene.foreign]).expect(404); // all or nothing
    await importDocument(t.app, {
      pages: [
        {
          team_id: ws.teamId,
          id: page,
          project_id: ws.projectId,
          parent_page_id: '',
          title: 'Imported',
          owner_id: ws.users.owner,
          archived: false,
          members: [],
        },
      ],
    });
    await t.http.patch(`${v1}/pages/${page}`).set('Authorization', ws.auth.member).send({ title: 'Real' }).expect(200);

    // Order holds per resource: had the no-ops on this page emitted, they would have arrived first.
    await receiver.waitFor(2, ofTeam(ws));
    const events = receiver.events(ofTeam(ws)).map((e) => [e.event.type, e.event.data.changed ?? e.event.data.tag_ids]);
    expect(events.sort()).toEqual([
      ['card.tags_added', [scene.usable[0]]],
      ['page.updated', ['title']],
    ]);
    expect((await stored(ws)).length).toBe(2);
  });

  it('a request replayed under its Idempotency-Key announces nothing again', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{}]);
    for (let n = 0; n < 2; n++)
      await t.http
        .patch(`/v1/${ws.teamId}/pages/${page}`)
        .set('Authorization', ws.auth.owner)
        .set('Idempotency-Key', 'rename-once')
        .send({ title: 'Once' })
        .expect(200);
    await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ font: 'mono' });
    const events = await receiver.waitFor(2, ofTeam(ws));
    expect(events.map((e) => e.event.data.changed)).toEqual([['title'], ['font']]);
    expect(await stored(ws)).toHaveLength(2);
  });

  it('filters by event type', async () => {
    const ws = await seedWorkspace(t.app);
    const other = await Receiver.start();
    try {
      await subscribe(t, ws, other.url, ['page.archived']);
      await subscribe(t, ws, receiver.url, ['page.updated']);
      const [page] = await seedPages(t.app, ws, [{}]);
      await t.http
        .patch(`/v1/${ws.teamId}/pages/${page}`)
        .set('Authorization', ws.auth.owner)
        .send({ title: 'U' })
        .expect(200);
      await t.http.put(`/v1/${ws.teamId}/pages/${page}/archive`).set('Authorization', ws.auth.owner).expect(200);
      await other.waitFor(1, ofTeam(ws));
      await receiver.waitFor(1, ofTeam(ws));
      expect(other.events(ofTeam(ws)).map((e) => e.event.type)).toEqual(['page.archived']);
      expect(receiver.events(ofTeam(ws)).map((e) => e.event.type)).toEqual(['page.updated']);
    } finally {
      await other.close();
    }
  });

  it("workspace isolation: a workspace's webhooks hear only its own changes", async () => {
    const a = await seedWorkspace(t.app);
    const b = await seedWorkspace(t.app);
    const other = await Receiver.start();
    try {
      await subscribe(t, a, receiver.url);
      await subscribe(t, b, other.url);
      const [pageA] = await seedPages(t.app, a, [{}]);
      const [pageB] = await seedPages(t.app, b, [{}]);
      await t.http
        .patch(`/v1/${a.teamId}/pages/${pageA}`)
        .set('Authorization', a.auth.owner)
        .send({ title: 'A' })
        .expect(200);
      await t.http
        .patch(`/v1/${b.teamId}/pages/${pageB}`)
        .set('Authorization', b.auth.owner)
        .send({ title: 'B' })
        .expect(200);
      await other.waitFor(1);
      await receiver.waitFor(1, ofTeam(a));
      expect(other.received.map((r) => r.event.data.team_id)).toEqual([b.teamId]);
      expect(receiver.events(ofTeam(b))).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('20 rapid changes of one page arrive in order, over connections kept open', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const { children } = await seedFamily(t.app, ws, 3);
    const page = children[1];
    for (let n = 0; n < 20; n++) {
      const body = n % 3 === 2 ? { position: n % 2 } : { title: `Title ${n}` };
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send(body).expect(200);
    }
    const events = await receiver.waitFor(20, ofPage(ws, page));
    const ids = events.map((e) => Number(e.headers['webhook-id']));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const titles = events.filter((e) => (e.event.data.changed as string[]).includes('title'));
    expect(titles.map((e) => (e.event.data.page as { title: string }).title)).toEqual(
      Array.from({ length: 20 }, (_, n) => n)
        .filter((n) => n % 3 !== 2)
        .map((n) => `Title ${n}`),
    );
    // One attempt at a time per page: at most each delivery slot (WEBHOOK_CONCURRENCY) opened one.
    expect(new Set(events.map((e) => e.connection)).size).toBeLessThanOrEqual(4);
  });

  it('a deleted webhook receives nothing more', async () => {
    const ws = await seedWorkspace(t.app);
    const gone = await Receiver.start();
    try {
      const hook = await subscribe(t, ws, gone.url);
      await subscribe(t, ws, receiver.url);
      const [page] = await seedPages(t.app, ws, [{}]);
      await t.http
        .patch(`/v1/${ws.teamId}/pages/${page}`)
        .set('Authorization', ws.auth.owner)
        .send({ title: '1' })
        .expect(200);
      await gone.waitFor(1);
      await t.http.delete(`/v1/${ws.teamId}/webhooks/${hook.id}`).set('Authorization', ws.auth.owner).expect(204);
      await t.http
        .patch(`/v1/${ws.teamId}/pages/${page}`)
        .set('Authorization', ws.auth.owner)
        .send({ title: '2' })
        .expect(200);
      await receiver.waitFor(2, ofPage(ws, page));
      expect(gone.received).toHaveLength(1);
    } finally {
      await gone.close();
    }
  });
});
