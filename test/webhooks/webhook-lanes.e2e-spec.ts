import { DataSource } from 'typeorm';
import { seedPages } from '../pages/page-fixtures';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createMigratedDatabase, EmptyDatabase } from '../support/empty-database';
import { createTestApp, TestApp } from '../support/test-app';
import { DELIVERY_LANES } from '../../src/webhooks/webhook-queries';
import { Received, Receiver, WEBHOOK_TEST_ENV } from './receiver';
import { ofTeam, subscribe } from './webhook-fixtures';

/** Well under the 10 s after which a held attempt fails and is retried: what waits for a held one fails. */
const MEANWHILE_MS = 8000;

const pageOf = (r: Pick<Received, 'event'>) => (r.event.data.page as { id: string; title: string }).id;
const titleOf = (r: Pick<Received, 'event'>) => (r.event.data.page as { id: string; title: string }).title;

/** A promise and what settles it. */
function signal(): { arrived: Promise<void>; came: () => void } {
  let came = () => {};
  const arrived = new Promise<void>((resolve) => (came = resolve));
  return { arrived, came };
}

describe("One webhook's lanes, delivered at once (e2e)", () => {
  jest.setTimeout(60_000);
  // A database of its own: no other spec's process may deliver these events, nor this one theirs.
  let database: EmptyDatabase;
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await createMigratedDatabase();
    // 4 slots: one webhook may take 2 of them.
    t = await createTestApp({ ...WEBHOOK_TEST_ENV, WEBHOOK_CONCURRENCY: '4', DATABASE_URL: database.url });
    receiver = await Receiver.start();
  });
  afterEach(() => {
    receiver.gate = () => undefined;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await database.drop();
  });

  /** The lane of each page's stream, as the database computes it (a stream written and rolled back). */
  async function lanesOf(pages: string[]): Promise<Map<string, number>> {
    const runner = t.app.get(DataSource).createQueryRunner();
    await runner.startTransaction();
    try {
      const rows = (await runner.query(
        `INSERT INTO webhook_streams (team_id, webhook_id, resource_key, last_event_id)
         SELECT 'lanes', 0, 'page:' || p, 0 FROM unnest($1::text[]) p RETURNING resource_key, lane`,
        [pages],
      )) as Array<{ resource_key: string; lane: number }>;
      return new Map(rows.map((row) => [row.resource_key.slice('page:'.length), row.lane]));
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  const patch = (ws: Workspace, page: string, title: string) =>
    t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title }).expect(200);

  it("a request held open holds back only its resource's lane: another resource's event comes meanwhile", async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const pages = await seedPages(
      t.app,
      ws,
      Array.from({ length: 8 }, () => ({})),
    );
    const lanes = await lanesOf(pages);
    const a = pages[0];
    const b = pages.find((page) => lanes.get(page) !== lanes.get(a))!;
    // Page a's first event is answered only once page b's has come: batches of one webhook delivered one
    // at a time would wait for each other until the held attempt timed out.
    const b1 = signal();
    receiver.gate = (request) => {
      if (!ofTeam(ws)(request.event)) return undefined;
      if (titleOf(request) === 'B1') b1.came();
      return titleOf(request) === 'A1' ? b1.arrived : undefined;
    };
    await patch(ws, a, 'A1');
    await receiver.waitFor(1, ofTeam(ws));
    await patch(ws, a, 'A2'); // queued behind A1, whose attempt is in flight
    await patch(ws, b, 'B1');
    const requests = await receiver.waitFor(3, ofTeam(ws), MEANWHILE_MS);
    expect(requests.map((r) => [titleOf(r), r.status])).toEqual([
      ['A1', 200],
      ['B1', 200],
      ['A2', 200],
    ]);
  });

  it('a receiver holding every request takes half the slots: another webhook is delivered meanwhile', async () => {
    const ws = await seedWorkspace(t.app);
    const slow = await Receiver.start('/slow');
    try {
      await subscribe(t, ws, slow.url, ['page.updated']);
      await subscribe(t, ws, receiver.url, ['note_template.created']);
      const pages = await seedPages(
        t.app,
        ws,
        Array.from({ length: 32 }, () => ({})),
      );
      const lanes = await lanesOf(pages);
      const onePerLane = [...new Map([...lanes].map(([page, lane]) => [lane, page])).values()];
      expect(onePerLane).toHaveLength(DELIVERY_LANES);
      // The slow receiver answers nothing until the other webhook's event has come.
      const other = signal();
      slow.gate = () => other.arrived;
      receiver.gate = (request) => {
        if (ofTeam(ws)(request.event)) other.came();
        return undefined;
      };
      await patch(ws, onePerLane[0], 'Held');
      await slow.waitFor(1, ofTeam(ws));
      // One lane each: were they all taken, the 4 slots would all wait on the slow receiver.
      for (const page of onePerLane.slice(1)) await patch(ws, page, 'Held');
      await t.http
        .post(`/v1/${ws.teamId}/notes/templates`)
        .set('Authorization', ws.auth.agent)
        .send({ title: 'Meanwhile', sections: [{ title: 'Today' }] })
        .expect(201);
      const [created] = await receiver.waitFor(1, ofTeam(ws), MEANWHILE_MS);
      expect(created.event.type).toBe('note_template.created');
      const held = await slow.waitFor(DELIVERY_LANES, ofTeam(ws));
      expect(held.map(pageOf).sort()).toEqual([...onePerLane].sort());
    } finally {
      slow.gate = () => undefined;
      await slow.close();
    }
  });
});
