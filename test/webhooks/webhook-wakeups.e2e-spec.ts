import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { call } from '../faults/http-client';
import { ServerProcess, startServer } from '../faults/server-process';
import { seedPages } from '../pages/page-fixtures';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { testDatabaseUrl } from '../support/test-config';
import { ACTIVITY } from '../support/citus';
import { waitFor, withDeadline } from '../support/wait-for';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker';
import { Receiver, WEBHOOK_TEST_ENV } from './receiver';
import { ofTeam, subscribe } from './webhook-fixtures';

/** A poll this slow never delivers within a test: only a wake can. */
const NEVER_POLLS = { ...WEBHOOK_TEST_ENV, WEBHOOK_POLL_INTERVAL_MS: '60000' };
/** A sixth of the 60 s poll: only a wake delivers this soon, and a loaded machine's wake still does. */
const WOKEN_MS = 10_000;
/** How long the processes' listening connections and the worker's slots may take to connect after boot. */
const CONNECTED_MS = 20_000;

/** A real server process (`node dist/src/main.js`) on the test database that writes and delivers nothing. */
async function writerProcess(): Promise<ServerProcess> {
  const env = { DATABASE_URL: testDatabaseUrl(), RUN_MIGRATIONS: 'false', LOG_LEVEL: 'silent', ...NEVER_POLLS };
  return startServer({ ...env, WEBHOOK_DELIVERY: 'false' });
}

/** The listening connections opened since `since`, once `count` of them listen (they connect after boot). */
async function listenersSince(t: TestApp, since: Date, count: number): Promise<number[]> {
  const listeners = async () =>
    (
      await t.app.get(DataSource).query<Array<{ pid: number }>>(
        `SELECT pid FROM pg_stat_activity
          WHERE application_name = 'workspace-content-api-listener' AND backend_start >= $1
            AND state = 'idle' AND query LIKE 'LISTEN%'`,
        [since],
      )
    ).map((row) => row.pid);
  const what = `${count} listening connections opened since ${since.toISOString()} (their pids)`;
  return waitFor(what, listeners, (pids) => pids.length >= count, { timeoutMs: CONNECTED_MS, everyMs: 50 });
}

/** Resolves once a delivery slot of a pool opened since `since` waits on a lock. */
async function claimsWaitingSince(t: TestApp, since: Date): Promise<void> {
  const waiting = async () =>
    (
      await t.app.get(DataSource).query<Array<{ waiting: number }>>(
        `SELECT count(*)::int AS waiting FROM ${ACTIVITY} slot JOIN ${ACTIVITY} w ON w.global_pid = slot.global_pid
          WHERE NOT slot.is_worker_query AND slot.application_name = 'workspace-content-api-webhooks'
            AND slot.backend_start >= $1 AND w.wait_event_type = 'Lock'`,
        [since],
      )
    )[0].waiting;
  const what = 'a delivery slot waiting on a lock (slots waiting)';
  await waitFor(what, waiting, (n) => n > 0, { timeoutMs: CONNECTED_MS, everyMs: 20 });
}

/**
 * A title PATCH through another process, resolved with its status (or the transport error it met, which a
 * failed expectation then shows). It waits twice the service's 10 s request timeout: how soon the write is
 * answered is not what these tests check, and a process just started answers slowly on a loaded machine.
 */
const patch = async (api: ServerProcess, ws: Workspace, page: string, title: string) => {
  const { status, error } = await call(api.baseUrl, {
    method: 'PATCH',
    path: `/v1/${ws.teamId}/pages/${page}`,
    auth: ws.auth.owner,
    body: { title },
    timeoutMs: 20_000,
  });
  return { status, error };
};

describe('a committed change wakes the delivery workers at once (e2e)', () => {
  jest.setTimeout(60_000);
  let receiver: Receiver;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    for (const process of started.splice(0)) {
      process.child.kill('SIGKILL');
      await process.exited;
    }
  });
  afterAll(() => receiver.close());

  describe('with WEBHOOK_POLL_INTERVAL_MS=60000', () => {
    let t: TestApp;
    beforeAll(async () => {
      const booted = new Date();
      t = await createTestApp(NEVER_POLLS);
      await listenersSince(t, booted, 1);
    });
    afterAll(() => t.close());

    it('a change made in the delivering process is delivered at once, not a poll later', async () => {
      const ws = await seedWorkspace(t.app);
      await subscribe(t, ws, receiver.url);
      const [page] = await seedPages(t.app, ws, [{}]);
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title: 'Here' });
      const [delivered] = await receiver.waitFor(1, ofTeam(ws), WOKEN_MS);
      expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Here' });
    });

    it('a change two webhooks take reaches the second at once while the first holds its batch', async () => {
      const holding = await Receiver.start();
      holding.answer = () => 0; // never answers: the slot that claimed its batch waits for the attempt's timeout
      try {
        const ws = await seedWorkspace(t.app);
        await subscribe(t, ws, holding.url);
        await subscribe(t, ws, receiver.url);
        const [page] = await seedPages(t.app, ws, [{}]);
        await t.http
          .patch(`/v1/${ws.teamId}/pages/${page}`)
          .set('Authorization', ws.auth.owner)
          .send({ title: 'Both' });
        await holding.waitFor(1, ofTeam(ws), WOKEN_MS);
        const [delivered] = await receiver.waitFor(1, ofTeam(ws), WOKEN_MS);
        expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Both' });
      } finally {
        await holding.close();
      }
    });

    it('a change made in another process is delivered at once, not a poll later', async () => {
      const ws = await seedWorkspace(t.app);
      await subscribe(t, ws, receiver.url);
      const [page] = await seedPages(t.app, ws, [{}]);
      const launched = new Date();
      const writer = await writerProcess(); // delivers nothing: only this app's worker can
      started.push(writer);
      await listenersSince(t, launched, 1);
      expect(await patch(writer, ws, page, 'Elsewhere')).toEqual({ status: 200 });
      const [delivered] = await receiver.waitFor(1, ofTeam(ws), WOKEN_MS);
      expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Elsewhere' });
    });

    it('a burst of changes is delivered whole, in order per page, each event once', async () => {
      const ws = await seedWorkspace(t.app);
      await subscribe(t, ws, receiver.url);
      const pages = await seedPages(
        t.app,
        ws,
        Array.from({ length: 8 }, () => ({})),
      );
      const launched = new Date();
      const writer = await writerProcess();
      started.push(writer);
      await listenersSince(t, launched, 1);
      await Promise.all(
        pages.map(async (page, n) => {
          for (const title of ['One', 'Two', 'Three']) {
            if (n % 2) expect(await patch(writer, ws, page, title)).toEqual({ status: 200 });
            else
              await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title });
          }
        }),
      );
      await receiver.waitFor(24, ofTeam(ws), WOKEN_MS * 2); // a third of the poll interval
      const ids = receiver.events(ofTeam(ws)).map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(24);
      for (const page of pages) {
        const titles = receiver
          .events((e) => ofTeam(ws)(e) && (e.data.page as { id: string }).id === page)
          .map((r) => (r.event.data.page as { title: string }).title);
        expect([page, titles]).toEqual([page, ['One', 'Two', 'Three']]);
      }
    });
  });

  it('an app shut down while its slots claim stops when the claims end, not a poll interval later', async () => {
    const blocker = new Client({ connectionString: testDatabaseUrl() });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE webhook_streams IN ACCESS EXCLUSIVE MODE'); // every claim waits on it
      const booted = new Date();
      const t = await createTestApp(NEVER_POLLS);
      await claimsWaitingSince(t, booted);
      const shutdown = jest.spyOn(t.app.get(DeliveryWorker), 'beforeApplicationShutdown');
      const closed = t.close();
      // The worker's shutdown began while the claims ran, so no slot was asleep to be woken.
      await waitFor(
        "the worker's shutdown to begin (its calls)",
        () => shutdown.mock.calls.length,
        (n) => n > 0,
      );
      await blocker.query('ROLLBACK');
      // A third of the 60 s poll interval a slot asleep after the shutdown would add.
      await withDeadline('the app to close once the claims end', 20_000, closed);
    } finally {
      await blocker.end();
    }
  });

  it('a lost notification (the listening connection killed) is delivered by the poll', async () => {
    const t = await createTestApp({ ...WEBHOOK_TEST_ENV, WEBHOOK_POLL_INTERVAL_MS: '1000' });
    try {
      const ws = await seedWorkspace(t.app);
      await subscribe(t, ws, receiver.url);
      const [page] = await seedPages(t.app, ws, [{}]);
      const launched = new Date();
      const writer = await writerProcess();
      started.push(writer);
      const [listener] = await listenersSince(t, launched, 1);
      // The writer's connection, on which it would NOTIFY, is gone (it connects again 250 ms later).
      await t.app.get(DataSource).query('SELECT pg_terminate_backend($1::int)', [listener]);
      expect(await patch(writer, ws, page, 'Unannounced')).toEqual({ status: 200 });
      const [delivered] = await receiver.waitFor(1, ofTeam(ws), 10_000);
      expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Unannounced' });
    } finally {
      await t.close();
    }
  });
});
