import { DataSource } from 'typeorm';
import { seedWorkspace } from '../support/fixtures';
import type { TestApp } from '../support/test-app';
import { Receiver, verify } from '../webhooks/receiver';
import { ofTeam, startAppAndReceiver, stopAppAndReceiver, subscribe } from '../webhooks/webhook-fixtures';
import { lifecycle, seedHigh } from './lifecycle-fixtures';

/** The page as an event shows it: without the per-request and per-caller fields. */
function shared(page: Record<string, unknown>): Record<string, unknown> {
  const { collaboration: _c, bookmarked: _b, is_watching: _w, is_bookmarked: _i, ...rest } = page;
  return rest;
}

describe('page.created and page.deleted (e2e, a real receiver on loopback)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => ({ t, receiver } = await startAppAndReceiver()));
  afterAll(() => stopAppAndReceiver(t, receiver));

  it('a create announces page.created with the page as GET shows it, verified with standardwebhooks', async () => {
    const ws = await seedWorkspace(t.app);
    const { secret } = await subscribe(t, ws, receiver.url);
    const api = lifecycle(t.http, ws);
    const created = (await api.create({ project_id: ws.projectId, title: 'New' }, ws.auth.agent).expect(201)).body.page;
    const [delivery] = await receiver.waitFor(1, ofTeam(ws));
    expect(verify(secret, delivery)).toEqual(delivery.event);
    expect(delivery.event.type).toBe('page.created');
    expect(delivery.event.data).toEqual({ team_id: ws.teamId, actor: created.user, page: shared(created) });
  });

  it('a recursive copy announces one page.created per page, root first, each with copied_from', async () => {
    const ws = await seedWorkspace(t.app);
    const [top] = await seedHigh(t.app, ws, [{ title: 'Top' }]);
    const [a, b] = await seedHigh(t.app, ws, [
      { parent: top, title: 'A' },
      { parent: top, title: 'B' },
    ]);
    const [a1] = await seedHigh(t.app, ws, [{ parent: a, title: 'A1' }]);
    const { secret } = await subscribe(t, ws, receiver.url);
    const api = lifecycle(t.http, ws);
    const copy = (await api.copy(top, { recursive: true }).expect(201)).body.page;
    const deliveries = await receiver.waitFor(4, ofTeam(ws));
    for (const delivery of deliveries) expect(verify(secret, delivery)).toEqual(delivery.event);
    const events = deliveries
      .map((d) => d.event)
      .sort(
        (x, y) =>
          Number(x.data.page && (x.data.page as { id: string }).id) - Number((y.data.page as { id: string }).id),
      );
    expect(events.map((e) => e.type)).toEqual(Array(4).fill('page.created'));
    expect(events.map((e) => [(e.data.page as { title: string }).title, e.data.copied_from])).toEqual([
      ['Top', top],
      ['A', a],
      ['A1', a1],
      ['B', b],
    ]);
    expect(events[0].data.page).toEqual(shared(copy));
    // The outbox holds them in tree order, the root first.
    const ids = deliveries.map((d) => Number(d.headers['webhook-id']));
    const byEvent = deliveries.map((d, i) => [ids[i], (d.event.data.page as { title: string }).title] as const);
    expect(byEvent.sort((x, y) => x[0] - y[0]).map(([, title]) => title)).toEqual(['Top', 'A', 'A1', 'B']);
  });

  it('a delete announces page.deleted with every page that went, after the events of the page before it', async () => {
    const ws = await seedWorkspace(t.app);
    const [top] = await seedHigh(t.app, ws, [{}]);
    const [kid] = await seedHigh(t.app, ws, [{ parent: top }]);
    const [archived] = await seedHigh(t.app, ws, [{ parent: kid }]);
    const { secret } = await subscribe(t, ws, receiver.url);
    const api = lifecycle(t.http, ws);
    await api.patch(archived, { archived: true }).expect(200);
    await api.patch(top, { title: 'Renamed' }).expect(200);
    await api.remove(top, ws.auth.admin).expect(204);
    const deliveries = await receiver.waitFor(3, ofTeam(ws));
    for (const delivery of deliveries) expect(verify(secret, delivery)).toEqual(delivery.event);
    const ofTop = deliveries.filter(
      (d) => (d.event.data.page_id ?? (d.event.data.page as { id?: string })?.id) === top,
    );
    expect(ofTop.map((d) => d.event.type)).toEqual(['page.updated', 'page.deleted']);
    const deleted = ofTop[1].event.data;
    expect(deleted).toEqual({
      team_id: ws.teamId,
      actor: expect.objectContaining({ user_id: ws.users.admin }),
      page_id: top,
      deleted_page_ids: expect.arrayContaining([top, kid, archived]),
    });
    expect((deleted.deleted_page_ids as string[])[0]).toBe(top);
    expect(deleted.deleted_page_ids).toHaveLength(3);
  });

  it('a refused or replayed write announces nothing more', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const api = lifecycle(t.http, ws);
    await api.create({ project_id: 'nope' }).expect(404);
    await api.create({ project_id: ws.projectId, title: 'Once' }).set('Idempotency-Key', 'k').expect(201);
    await api.create({ project_id: ws.projectId, title: 'Once' }).set('Idempotency-Key', 'k').expect(201);
    await api.create({ project_id: ws.projectId, title: 'Marker' }).expect(201);
    const stored = await t.app
      .get(DataSource)
      .query<Array<{ type: string }>>(`SELECT type FROM webhook_events WHERE team_id = $1`, [ws.teamId]);
    expect(stored.map((row) => row.type)).toEqual(['page.created', 'page.created']);
  });
});
