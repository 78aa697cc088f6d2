import { AddressInfo, createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { Sql } from '../../src/database/sql';
import {
  CLAIM_DELIVERIES,
  CLAIM_WORKSPACE_DELIVERIES,
  DUE_WEBHOOKS,
  TRIM_WEBHOOK_DATA,
  WEBHOOK_BACKLOG,
  WORKSPACES_TO_TRIM,
} from '../../src/webhooks/webhook-queries';
import { seedPages } from '../pages/page-fixtures';
import { TEST_ON_CITUS } from '../support/citus';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { Received, Receiver } from './receiver';
import {
  deliveryLog,
  ofTeam,
  recordedLog,
  startAppAndReceiver,
  stopAppAndReceiver,
  subscribe,
} from './webhook-fixtures';

/** A loopback URL nothing listens on: every attempt fails to connect. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/gone`;
}

/** Writers of rows as the outbox holds them, inside an uncommitted transaction (`uncommitted`). */
interface UncommittedRows {
  query: (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;
  /** A webhook to a port nothing listens on; its id. */
  webhook: (teamId: string) => Promise<string>;
  /** A stream due since `dueAgo` (an interval), its last event 1. */
  stream: (teamId: string, webhookId: string, key: string, dueAgo: string) => Promise<unknown>;
  /** A pending delivery of a new event. */
  delivery: (teamId: string, webhookId: string, key: string) => Promise<unknown>;
}

describe('Webhook retries, order and the deliveries log (e2e)', () => {
  let t: TestApp;
  let receiver: Receiver;

  beforeAll(async () => ({ t, receiver } = await startAppAndReceiver()));
  afterAll(() => stopAppAndReceiver(t, receiver));

  const deliveries = (ws: Workspace, id: string) => deliveryLog(t, ws, id);
  const recorded = (ws: Workspace, id: string, count: number) => recordedLog(t, ws, id, count);

  it('a receiver failing twice then succeeding: same webhook-id, the later event waits, the log shows it', async () => {
    const ws = await seedWorkspace(t.app);
    const hook = (await subscribe(t, ws, receiver.url)).id;
    const [page] = await seedPages(t.app, ws, [{}]);
    let failures = 0;
    receiver.answer = (request) =>
      request.event.data.team_id === ws.teamId && request.event.data.changed?.toString() === 'title' && failures++ < 2
        ? 500
        : 200;
    try {
      const patch = (body: object) =>
        t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send(body).expect(200);
      await patch({ title: 'First' });
      await patch({ font: 'mono' });
      const requests = await receiver.waitFor(4, ofTeam(ws));
      expect(requests.map((r) => [r.status, r.event.data.changed])).toEqual([
        [500, ['title']],
        [500, ['title']],
        [200, ['title']],
        [200, ['font']],
      ]);
      const [first, second] = [requests[0].headers['webhook-id'], requests[3].headers['webhook-id']];
      expect(requests.slice(0, 3).map((r) => r.headers['webhook-id'])).toEqual([first, first, first]);
      expect(second).not.toBe(first);

      const log = await recorded(ws, hook, 4);
      expect(log.map((a) => [a.id, a.type, a.attempt, a.status, a.outcome])).toEqual([
        [second, 'page.updated', 1, 200, 'delivered'],
        [first, 'page.updated', 3, 200, 'delivered'],
        [first, 'page.updated', 2, 500, 'retrying'],
        [first, 'page.updated', 1, 500, 'retrying'],
      ]);
      expect(log[0].next_attempt).toBeNull();
      // The backoff doubles: 200 ms, then 400 ms (WEBHOOK_RETRY_BASE_MS=200).
      expect(log[3].next_attempt! - log[3].time).toBeGreaterThanOrEqual(199);
      expect(log[2].next_attempt! - log[2].time).toBeGreaterThanOrEqual(399);
    } finally {
      receiver.answer = () => 200;
    }
  });

  it("changes of several pages at once: one page's failure holds back only that page's later events", async () => {
    const ws = await seedWorkspace(t.app);
    const hook = (await subscribe(t, ws, receiver.url)).id;
    const pages = await seedPages(t.app, ws, [{}, {}, {}, {}, {}, {}]);
    const [failing, ...others] = pages;
    const pageOf = (r: Pick<Received, 'event'>) => (r.event.data.page as { id: string }).id;
    // The failing page's receiver fails it until every other page's change has come: were they held back
    // behind it, they would never come, and the wait below would time out.
    const othersCame = () =>
      new Set(
        receiver
          .events(ofTeam(ws))
          .map(pageOf)
          .filter((p) => p !== failing),
      ).size === 5;
    receiver.answer = (request) =>
      request.event.data.team_id === ws.teamId && pageOf(request) === failing && !othersCame() ? 500 : 200;
    receiver.holdMs = 20; // the attempts of one claim overlap
    try {
      const patch = (page: string, body: object) =>
        t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send(body).expect(200);
      await Promise.all(pages.map((page) => patch(page, { title: `Batch ${page}` })));
      await patch(failing, { font: 'mono' });
      // The failing page's font change comes last: after its title change, delivered once the others came.
      await receiver.waitFor(1, (event) => ofTeam(ws)(event) && String(event.data.changed) === 'font');
      const requests = receiver.events(ofTeam(ws));
      const ofFailing = requests.filter((r) => pageOf(r) === failing).map((r) => [r.status, r.event.data.changed]);
      const failures = ofFailing.length - 2;
      expect(failures).toBeGreaterThanOrEqual(1);
      expect(ofFailing).toEqual([
        ...Array.from({ length: failures }, () => [500, ['title']]),
        [200, ['title']],
        [200, ['font']],
      ]);
      expect(requests.filter((r) => others.includes(pageOf(r))).every((r) => r.status === 200)).toBe(true);

      const log = await recorded(ws, hook, failures + 7);
      const byEvent = new Map<string, Array<[number, number | null, string]>>();
      for (const a of [...log].reverse())
        byEvent.set(a.id, [...(byEvent.get(a.id) ?? []), [a.attempt, a.status, a.outcome]]);
      const failedId = String(requests.find((r) => r.status === 500)!.headers['webhook-id']);
      expect(byEvent.get(failedId)).toEqual([
        ...Array.from({ length: failures }, (_, n) => [n + 1, 500, 'retrying']),
        [failures + 1, 200, 'delivered'],
      ]);
      expect([...byEvent].filter(([id]) => id !== failedId).map(([, attempts]) => attempts)).toEqual(
        Array.from({ length: 6 }, () => [[1, 200, 'delivered']]),
      );
    } finally {
      receiver.answer = () => 200;
      receiver.holdMs = 0;
    }
  });

  it('a redirect is not followed: it is a failed attempt', async () => {
    const ws = await seedWorkspace(t.app);
    const hook = (await subscribe(t, ws, receiver.url)).id;
    const [page] = await seedPages(t.app, ws, [{}]);
    let redirected = false;
    receiver.answer = (request) =>
      request.event.data.team_id === ws.teamId && !redirected ? ((redirected = true), 307) : 200;
    try {
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title: 'R' });
      const requests = await receiver.waitFor(2, ofTeam(ws));
      expect(requests.map((r) => r.status)).toEqual([307, 200]);
      expect((await recorded(ws, hook, 2)).map((a) => [a.attempt, a.status])).toEqual([
        [2, 200],
        [1, 307],
      ]);
    } finally {
      receiver.answer = () => 200;
    }
  });

  it('a receiver down for the whole test does not delay another webhook; its events are given up', async () => {
    const ws = await seedWorkspace(t.app);
    const dead = (await subscribe(t, ws, await deadUrl())).id;
    await subscribe(t, ws, receiver.url);
    const pages = await seedPages(t.app, ws, [{}, {}, {}]);
    for (const page of pages)
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title: 'Up' });
    await receiver.waitFor(3, ofTeam(ws));

    // Given up once the next retry would fall past WEBHOOK_RETRY_WINDOW_MS (6 s) after the event.
    const log = await waitFor(
      "the dead receiver's 3 events given up (its deliveries log)",
      () => deliveries(ws, dead),
      (attempts) => attempts.filter((a) => a.outcome === 'given_up').length >= 3,
      { timeoutMs: 20_000, everyMs: 250 },
    );
    const givenUp = log.filter((a) => a.outcome === 'given_up');
    expect(givenUp).toHaveLength(3);
    expect(givenUp.every((a) => a.status === null && a.next_attempt === null && a.attempt > 1)).toBe(true);
    expect(
      log.filter((a) => a.outcome === 'retrying').every((a) => a.status === null && a.next_attempt! > a.time),
    ).toBe(true);
  });

  /**
   * Runs `work` on rows it writes in a transaction that is rolled back: uncommitted, so no worker and no
   * housekeeping sees them, and the statements under test meet them alone.
   */
  async function uncommitted(work: (rows: UncommittedRows) => Promise<void>): Promise<void> {
    const tx = t.app.get(DataSource).createQueryRunner();
    await tx.startTransaction();
    try {
      const query = (text: string, params: unknown[]) =>
        tx.query(text, params) as Promise<Array<Record<string, unknown>>>;
      await work({
        query,
        webhook: async (teamId) => {
          const [{ id }] = await query(
            `INSERT INTO webhooks (team_id, url, events, secret, created_by)
             VALUES ($1, 'http://127.0.0.1:9/', ARRAY['*'], 'plain:whsec_x', '{"type": "user"}') RETURNING id::text`,
            [teamId],
          );
          return id as string;
        },
        stream: (teamId, webhookId, key, dueAgo) =>
          query(
            `INSERT INTO webhook_streams (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
             VALUES ($1, $2, $3, now() - $4::interval, 1)`,
            [teamId, webhookId, key, dueAgo],
          ),
        delivery: (teamId, webhookId, key) =>
          query(
            `WITH e AS (
               INSERT INTO webhook_events (team_id, type, resource_type, resource_id, actor, resource)
               VALUES ($1, 'page.updated', 'page', '1', '{}', '{}') RETURNING team_id, id)
             INSERT INTO webhook_deliveries (team_id, webhook_id, event_id, resource_key)
             SELECT team_id, $2, id, $3 FROM e`,
            [teamId, webhookId, key],
          ),
      });
    } finally {
      await tx.rollbackTransaction();
      await tx.release();
    }
  }

  it('a due stream with nothing pending does not stop the claim, on one node or in a workspace', async () => {
    const ws = await seedWorkspace(t.app);
    await uncommitted(async (rows) => {
      const empty = await rows.webhook(ws.teamId);
      await rows.stream(ws.teamId, empty, 'page:1', '2 hours'); // due the longest, with nothing queued
      const queued = await rows.webhook(ws.teamId);
      await rows.stream(ws.teamId, queued, 'page:1', '1 hour');
      await rows.delivery(ws.teamId, queued, 'page:1');
      if (!TEST_ON_CITUS) {
        // One node's claim; Citus locks in no statement across shards, and reads due_webhooks instead.
        const claimed = await rows.query(CLAIM_DELIVERIES.text, [[], 32]);
        expect(claimed.map((row) => row.webhook_id)).toEqual([queued]);
      }
      const due = await rows.query(DUE_WEBHOOKS.text, [[], 32]);
      expect(due.map((row) => row.webhook_id)).toEqual([queued]);
      expect(await rows.query(CLAIM_WORKSPACE_DELIVERIES.text, [ws.teamId, empty, 32])).toEqual([]);
      const inWorkspace = await rows.query(CLAIM_WORKSPACE_DELIVERIES.text, [ws.teamId, queued, 32]);
      expect(inWorkspace.map((row) => [row.webhook_id, row.resource_key])).toEqual([[queued, 'page:1']]);
    });
  });

  it('housekeeping removes what a deleted webhook left, and counts the backlog', async () => {
    const ws = await seedWorkspace(t.app);
    const hook = (await subscribe(t, ws, await deadUrl())).id;
    const [page] = await seedPages(t.app, ws, [{}]);
    await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title: 'X' });
    const db = t.app.get(DataSource);
    const count = async (table: string) =>
      (
        await db.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${table} WHERE team_id = $1`, [ws.teamId])
      )[0].n;
    await waitFor(
      'an attempt recorded (attempts)',
      () => count('webhook_attempts'),
      (n) => n > 0,
      { everyMs: 50 },
    );
    expect(await count('webhook_deliveries')).toBe(1);
    const sql = t.app.get(Sql);
    const [backlog] = await sql.query(WEBHOOK_BACKLOG, {});
    expect(backlog.pending).toBeGreaterThanOrEqual(1);
    expect(backlog.oldest_ms).toBeGreaterThanOrEqual(0);

    await t.http.delete(`/v1/${ws.teamId}/webhooks/${hook}`).set('Authorization', ws.auth.owner).expect(204);
    // A retention of a year keeps everything finished; only what the deleted webhook left goes.
    // (An attempt in flight when the webhook was deleted holds its delivery until it ends: then it goes too.)
    const retentionMs = 365 * 86_400_000;
    const trim = async () => {
      const due = await sql.query(WORKSPACES_TO_TRIM, { retentionMs, limit: 1000 });
      expect(due.map((row) => row.team_id)).toContain(ws.teamId);
      await sql.query(TRIM_WEBHOOK_DATA, { teamId: ws.teamId, retentionMs });
      return count('webhook_deliveries');
    };
    await waitFor("the deleted webhook's deliveries trimmed (deliveries left)", trim, (n) => n === 0, { everyMs: 50 });
    expect(await count('webhook_deliveries')).toBe(0);
    expect(await count('webhook_attempts')).toBe(0);
    expect(await count('webhook_events')).toBe(1); // trimmed only after the retention
  });
});
