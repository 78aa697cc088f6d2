import { DataSource } from 'typeorm';
import { call } from '../faults/http-client';
import { ServerProcess, START_STEP_MS, startServer } from '../faults/server-process';
import { stepsShowing } from '../faults/server-steps';
import { seedPages } from '../pages/page-fixtures';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { createMigratedDatabase, EmptyDatabase } from '../support/empty-database';
import { waitFor } from '../support/wait-for';
import { Receiver, WEBHOOK_TEST_ENV } from './receiver';
import { ofTeam, subscribe } from './webhook-fixtures';

/** Twice the server's 10 s REQUEST_TIMEOUT_MS: it answers every request before, however loaded the machine. */
const REQUEST_TIMEOUT_MS = 20_000;
/** A step that waits for a request, a delivery or an exit. */
const STEP_MS = 25_000;

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
  jest.setTimeout(2 * START_STEP_MS + 5 * STEP_MS); // above a test's step deadlines: a step says what waited
  let t: TestApp;
  let receiver: Receiver;
  const started: ServerProcess[] = [];
  const step = stepsShowing(() => started);

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
    const process = await step('start a server', START_STEP_MS, () => server(database.url, env));
    started.push(process);
    return process;
  }

  const patch = (api: ServerProcess, ws: Workspace, page: string, body: object) =>
    step(`PATCH page ${page}`, STEP_MS, () =>
      call(api.baseUrl, {
        method: 'PATCH',
        path: `/v1/${ws.teamId}/pages/${page}`,
        auth: ws.auth.owner,
        body,
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
    );
  const delivered = (count: number, ws: Workspace) =>
    step(`${count} deliveries reach the receiver`, STEP_MS + 2000, () => receiver.waitFor(count, ofTeam(ws), STEP_MS));
  const exitOf = (process: ServerProcess, why: string) =>
    step(`the server exits (${why})`, STEP_MS, () => process.exited);

  const eventIds = async (ws: Workspace) =>
    (
      await t.app
        .get(DataSource)
        .query<Array<{ id: string }>>(`SELECT id::text FROM webhook_events WHERE team_id = $1 ORDER BY id`, [ws.teamId])
    ).map((e) => e.id);

  /** The workspace's deliveries that are delivered and that no attempt holds (SKIP LOCKED passes over those). */
  const finishedDeliveries = async (ws: Workspace) =>
    (
      await t.app.get(DataSource).query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM (
           SELECT 1 FROM webhook_deliveries
            WHERE team_id = $1 AND state = 'delivered' FOR KEY SHARE SKIP LOCKED) d`,
        [ws.teamId],
      )
    )[0].n;

  it('a process killed right after the commit: the event is delivered after a restart', async () => {
    const ws = await seedWorkspace(t.app);
    await subscribe(t, ws, receiver.url);
    const [page] = await seedPages(t.app, ws, [{}]);
    const first = await launch({ WEBHOOK_DELIVERY: 'false' }); // dies before it could ever deliver
    expect((await patch(first, ws, page, { title: 'Committed' })).status).toBe(200);
    first.child.kill('SIGKILL');
    await exitOf(first, 'SIGKILL');
    const [eventId] = await eventIds(ws);
    expect(eventId).toBeDefined();

    await launch();
    const [request] = await delivered(1, ws);
    expect(request.headers['webhook-id']).toBe(eventId);
    expect(request.event.data.page).toMatchObject({ id: page, title: 'Committed' });
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
    await delivered(1, ws);
    first.child.kill('SIGKILL');
    await exitOf(first, 'SIGKILL');

    await launch();
    const [attempted, retried] = await delivered(2, ws);
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
    await delivered(1, ws);
    api.child.kill('SIGTERM');
    expect((await exitOf(api, 'SIGTERM during the attempt')).code).toBe(0);
    // Whichever process made the attempt, it is recorded once it ends; had it been dropped, it would be made again.
    const recorded = async () =>
      (
        await t.app
          .get(DataSource)
          .query<Array<{ n: number; outcome: string }>>(
            `SELECT count(*)::int AS n, max(outcome) AS outcome FROM webhook_attempts WHERE team_id = $1`,
            [ws.teamId],
          )
      )[0];
    const attempts = await step('the attempt is recorded', STEP_MS, () =>
      waitFor('an attempt recorded (attempts, outcome)', recorded, (seen) => seen.n > 0, { timeoutMs: 15_000 }),
    );
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
    await delivered(20, ws);
    // An attempt holds its delivery's row lock until its outcome is recorded, and only a pending delivery is
    // claimed: once every delivery is delivered and none is locked, no request is in flight nor can one start.
    await step('every delivery is finished', STEP_MS, () =>
      waitFor(
        '20 deliveries delivered and none held by an attempt',
        () => finishedDeliveries(ws),
        (n) => n === 20,
      ),
    );
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
