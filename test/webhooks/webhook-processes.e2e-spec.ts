import { DataSource } from 'typeorm';
import { call } from '../faults/http-client';
import { ServerProcess, startServer } from '../faults/server-process';
import { seedPages } from '../pages/page-fixtures';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, EmptyDatabase } from '../support/empty-database';
import { Receiver, sleep, WEBHOOK_TEST_ENV } from './receiver';
import { ofTeam, subscribe } from './webhook-fixtures';

/** Real server processes (`node dist/src/main.js`) on `databaseUrl`, delivering as every webhook spec does. */
function server(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  return startServer({
    DATABASE_URL: databaseUrl,
    RUN_MIGRATIONS: 'false',
    LOG_LEVEL: 'silent',
    ...WEBHOOK_TEST_ENV,
    ...env,
  });
}

async function stop(process: ServerProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!process || process.child.exitCode !== null || process.child.signalCode !== null) return;
  process.child.kill(signal);
  await process.exited;
}

describe('Webhook delivery across real server processes (e2e)', () => {
  jest.setTimeout(90_000);
  let t: TestApp;
  let receiver: Receiver;
  const started: ServerProcess[] = [];

  // A database of its own: the processes this spec kills mid-attempt would deliver other specs' events again.
  let database: EmptyDatabase;

  beforeAll(async () => {
    database = await createMigratedDatabase();
    // Seeds and reads; delivers nothing.
    t = await createTestApp({ ...WEBHOOK_TEST_ENV, WEBHOOK_DELIVERY: 'false', DATABASE_URL: database.url });
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => stop(p, 'SIGKILL')));
    receiver.answer = () => 200;
    receiver.holdMs = 0;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await database.drop();
  });

  async function launch(env: Record<string, string> = {}): Promise<ServerProcess> {
    const process = await server(database.url, env);
    started.push(process);
    return process;
  }

  const patch = (api: ServerProcess, ws: Workspace, page: string, body: object) =>
    call(api.baseUrl, {
      method: 'PATCH',
      path: `/v1/${ws.teamId}/pages/${page}`,
      auth: ws.auth.owner,
      body,
      timeoutMs: 10_000,
    });

  const eventIds = async (ws: Workspace) =>
    (
      await t.app
        .get(DataSource)
        .query<Array<{ id: string }>>(`SELECT id::text FROM webhook_events WHERE team_id = $1 ORDER BY id`, [ws.teamId])
    ).map((e) => e.id);

  it('a process killed right after the commit: the event is delivered after a restart', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{}]);
    const first = await launch({ WEBHOOK_DELIVERY: 'false' }); // dies before it could ever deliver
    expect((await patch(first, ws, page, { title: 'Committed' })).status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    const [eventId] = await eventIds(ws);
    expect(eventId).toBeDefined();

    await launch();
    const [delivered] = await receiver.waitFor(1, ofTeam(ws));
    expect(delivered.headers['webhook-id']).toBe(eventId);
    expect(delivered.event.data.page).toMatchObject({ id: page, title: 'Committed' });
  });

  it('a process killed in the middle of an attempt: another retries it with the same webhook-id', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{}]);
    // The first attempt is held unanswered: the process attempting it dies while it waits.
    receiver.answer = (request) =>
      request.event.data.team_id === ws.teamId && receiver.events(ofTeam(ws)).length === 0 ? 0 : 200;
    const first = await launch();
    expect((await patch(first, ws, page, { title: 'Mid-attempt' })).status).toBe(200);
    await receiver.waitFor(1, ofTeam(ws));
    first.child.kill('SIGKILL');
    await first.exited;

    await launch();
    const [attempted, retried] = await receiver.waitFor(2, ofTeam(ws));
    expect(retried.headers['webhook-id']).toBe(attempted.headers['webhook-id']);
    expect(retried.status).toBe(200);
  });

  it('SIGTERM during an attempt: the attempt finishes and is recorded before the process exits', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{}]);
    const api = await launch();
    receiver.holdMs = 1500;
    expect((await patch(api, ws, page, { title: 'In flight' })).status).toBe(200);
    await receiver.waitFor(1, ofTeam(ws));
    api.child.kill('SIGTERM');
    expect((await api.exited).code).toBe(0);
    // Whichever process made the attempt, it is recorded once it ends; had it been dropped, it would be made again.
    const recorded = () =>
      t.app
        .get(DataSource)
        .query<Array<{ n: number; outcome: string }>>(
          `SELECT count(*)::int AS n, max(outcome) AS outcome FROM webhook_attempts WHERE team_id = $1`,
          [ws.teamId],
        );
    const deadline = Date.now() + 15_000;
    let [attempts] = await recorded();
    while (attempts.n === 0 && Date.now() < deadline) {
      await sleep(100);
      [attempts] = await recorded();
    }
    expect(receiver.events(ofTeam(ws))).toHaveLength(1);
    expect(attempts).toEqual({ n: 1, outcome: 'delivered' });
  });

  it('two processes on one database deliver each event once', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const pages = await seedPages(
      t.app,
      ws,
      Array.from({ length: 10 }, () => ({})),
    );
    const [a, b] = await Promise.all([launch(), launch()]);
    await Promise.all(
      pages.map(async (page, n) => {
        expect((await patch(n % 2 ? a : b, ws, page, { title: 'One' })).status).toBe(200);
        expect((await patch(n % 2 ? b : a, ws, page, { title: 'Two' })).status).toBe(200);
      }),
    );
    const ids = await eventIds(ws);
    expect(ids).toHaveLength(20);
    await receiver.waitFor(20, ofTeam(ws));
    await sleep(1000); // time enough for a duplicate to show up
    const received = receiver.events(ofTeam(ws)).map((r) => String(r.headers['webhook-id']));
    expect(received.sort()).toEqual([...ids].sort());
    for (const page of pages) {
      const titles = receiver
        .events((e) => ofTeam(ws)(e) && (e.data.page as { id: string }).id === page)
        .map((r) => (r.event.data.page as { title: string }).title);
      expect([page, titles]).toEqual([page, ['One', 'Two']]);
    }
  });
});
