import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { call } from '../faults/http-client';
import { ServerProcess, startServer } from '../faults/server-process';
import { seedPages } from '../pages/page-fixtures';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { testDatabaseUrl } from '../support/test-config';
import { ACTIVITY } from '../support/citus';
import { Receiver, sleep, WEBHOOK_TEST_ENV } from './receiver';
import { ofTeam, subscribe } from './webhook-fixtures';

/** A poll this slow never delivers within a test: only a wake can. */
const NEVER_POLLS = { ...WEBHOOK_TEST_ENV, WEBHOOK_POLL_INTERVAL_MS: '60000' };
/** Within this a woken worker delivers; a poll would take a minute. */
const WOKEN_MS = 1000;

/** A real server process (`node dist/src/main.js`) on the test database that writes and delivers nothing. */
async function writerProcess(): Promise<ServerProcess> {
  const env = { DATABASE_URL: testDatabaseUrl(), RUN_MIGRATIONS: 'false', LOG_LEVEL: 'silent', ...NEVER_POLLS };
  return startServer({ ...env, WEBHOOK_DELIVERY: 'false' });
}

/** The listening connections opened since `since`, once `count` of them listen (they connect after boot). */
async function listenersSince(t: TestApp, since: Date, count: number): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await t.app.get(DataSource).query<Array<{ pid: number }>>(
      `SELECT pid FROM pg_stat_activity
        WHERE application_name = 'workspace-content-api-listener' AND backend_start >= $1
          AND state = 'idle' AND query LIKE 'LISTEN%'`,
      [since],
    );
    if (rows.length >= count || Date.now() > deadline) return rows.map((row) => row.pid);
    await sleep(50);
  }
}

/** Resolves once a delivery slot of a pool opened since `since` waits on a lock. */
async function claimsWaitingSince(t: TestApp, since: Date): Promise<void> {
  for (;;) {
    const [{ waiting }] = await t.app.get(DataSource).query<Array<{ waiting: number }>>(
      `SELECT count(*)::int AS waiting FROM ${ACTIVITY} slot JOIN ${ACTIVITY} w ON w.global_pid = slot.global_pid
        WHERE NOT slot.is_worker_query AND slot.application_name = 'workspace-content-api-webhooks'
          AND slot.backend_start >= $1 AND w.wait_event_type = 'Lock'`,
      [since],
    );
    if (waiting > 0) return;
    await sleep(20);
  }
}

const patch = (api: ServerProcess, ws: Workspace, page: string, title: string) =>
  call(api.baseUrl, {
    method: 'PATCH',
    path: `/v1/${ws.teamId}/pages/${page}`,
    auth: ws.auth.owner,
    body: { title },
    timeoutMs: 10_000,
  });

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

    it('a change made in the delivering process is delivered within a second', async () => {
      const ws = await seedWorkspace(t.app);
      await subscribe(t, ws, receiver.url);
      const [page] = await seedPages(t.app, ws, [{}]);
      await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title: 'Here' });
      const [delivered] = await receiver.waitFor(1, ofTeam(ws), WOKEN_MS);
      expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Here' });
    });

    it('a change two webhooks take reaches the second within a second while the first holds its batch', async () => {
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

    it('a change made in another process is delivered within a second', async () => {
      const ws = await seedWorkspace(t.app);
      await subscribe(t, ws, receiver.url);
      const [page] = await seedPages(t.app, ws, [{}]);
      const launched = new Date();
      const writer = await writerProcess(); // delivers nothing: only this app's worker can
      started.push(writer);
      await listenersSince(t, launched, 1);
      expect((await patch(writer, ws, page, 'Elsewhere')).status).toBe(200);
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
            if (n % 2) expect((await patch(writer, ws, page, title)).status).toBe(200);
            else
              await t.http.patch(`/v1/${ws.teamId}/pages/${page}`).set('Authorization', ws.auth.owner).send({ title });
          }
        }),
      );
      await receiver.waitFor(24, ofTeam(ws), WOKEN_MS * 5);
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
      const closed = t.close().then(() => 'closed');
      await sleep(200); // the shutdown began while the claims ran, so no slot was asleep to be woken
      await blocker.query('ROLLBACK');
      expect(await Promise.race([closed, sleep(10_000).then(() => 'still waiting')])).toBe('closed');
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
      expect((await patch(writer, ws, page, 'Unannounced')).status).toBe(200);
      const [delivered] = await receiver.waitFor(1, ofTeam(ws), 10_000);
      expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Unannounced' });
    } finally {
      await t.close();
    }
  });
});
