import { join } from 'node:path';
import { call, Outcome } from '../faults/http-client';
import { ServerProcess, START_STEP_MS, startServer } from '../faults/server-process';
import { stepsShowing } from '../faults/server-steps';
import { useScene } from '../support/scene';
import { testDatabaseUrl } from '../support/test-config';
import { waitFor } from '../support/wait-for';
import { ATTACH_TAGS } from '../../src/cards/card-queries';
import { CATALOGUE } from '../../src/errors/catalogue';
import { WRITE_TEMPLATE } from '../../src/notes/note-template-queries';
import { WRITE_PAGE } from '../../src/pages/page-queries';
import { freshKey, seedSubject, snapshot, stored, Subject, WriteName } from './safe-writes';

const PRELOAD = join(__dirname, 'crash-at-statement.js');
/** Twice the server's 10 s REQUEST_TIMEOUT_MS: it answers every request before, however loaded the machine. */
const TIMEOUT_MS = 20_000;
/** A request's step: its own timeout, and a little for the step to report it rather than race it. */
const REQUEST_STEP_MS = TIMEOUT_MS + 2000;
/** How long a process may take to exit once killed or signalled. */
const EXIT_STEP_MS = 10_000;
/** How long the dead request's claim may hold its key: well past its 1 s REQUEST_TIMEOUT_MS, then swept. */
const KEY_FREED_MS = 45_000;

/**
 * Keys are kept in the database, with the change: they outlive the process that answered. The compiled server
 * runs as a process of its own on the test database; the in-process test app seeds and reads.
 */
describe('idempotency keys outlive the server process', () => {
  const s = useScene();
  const servers: ServerProcess[] = [];
  let live: ServerProcess | undefined;
  const step = stepsShowing(() => servers);

  function start(env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ServerProcess> {
    return step('start a server', START_STEP_MS, () => launch(env, nodeArgs));
  }

  async function launch(env: Record<string, string>, nodeArgs: string[]): Promise<ServerProcess> {
    const server = await startServer(
      // One public base URL for every instance (and the in-process app's default), whatever port each listens on.
      {
        DATABASE_URL: testDatabaseUrl(),
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_MINUTE: '0',
        PUBLIC_PAGES_BASE_URL: 'http://localhost:3000/p',
        ...env,
      },
      nodeArgs,
    );
    servers.push(server);
    return server;
  }

  /** A server without the preload, started once for the file: the instance a client's retry reaches. */
  const liveServer = async () => (live ??= await start());

  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await server.exited;
    }
  });

  /** The subject's write with `key`, as the member, sent to `server`. */
  const keyedWrite = (server: ServerProcess, subject: Subject, key: string): Promise<Outcome> =>
    step(`the ${subject.method.toUpperCase()} with key ${key}`, REQUEST_STEP_MS, () =>
      call(server.baseUrl, {
        method: subject.method.toUpperCase() as 'PATCH' | 'PUT' | 'POST',
        path: subject.path,
        auth: subject.ws.auth.member,
        body: subject.body,
        headers: { 'Idempotency-Key': key },
        timeoutMs: TIMEOUT_MS,
      }),
    );
  const exitOf = (server: ServerProcess, why: string) =>
    step(`the server exits (${why})`, EXIT_STEP_MS, () => server.exited);

  const summary = (o: Outcome) => ({
    status: o.status,
    error: o.error,
    replayed: o.headers['idempotent-replayed'],
    etag: o.headers.etag,
    body: o.body,
  });

  it(
    'a key kept by one server process is replayed after a restart, and the write does not run again',
    async () => {
      const subject = await seedSubject(s, 'page');
      const key = freshKey();
      const first = await start();
      const answered = await keyedWrite(first, subject, key);
      expect(answered.status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await exitOf(first, 'SIGTERM')).toMatchObject({ code: 0 });
      await subject.alter();
      const changed = await snapshot(subject);

      const again = await keyedWrite(await start(), subject, key);
      expect(summary(again)).toEqual({ ...summary(answered), replayed: 'true' });
      expect(await snapshot(subject)).toEqual(changed);
    },
    2 * START_STEP_MS + 2 * REQUEST_STEP_MS + EXIT_STEP_MS + 10_000,
  );

  /** The writes by the statement that applies them with a key; the archive is a page write too. */
  const CRASHING: Array<[WriteName, string]> = [
    ['template', WRITE_TEMPLATE.keyed.name],
    ['page', WRITE_PAGE.keyed.name],
    ['tags', ATTACH_TAGS.name],
  ];

  it.each(CRASHING)(
    'a %s write whose process dies between its commit and its answer: the retry is a replay, not a second change',
    async (name, statement) => {
      const subject = await seedSubject(s, name);
      const key = freshKey();
      const before = await snapshot(subject);
      const crashing = await start({ CRASH_AT_STATEMENT: statement, CRASH_WHEN: 'after-commit' }, ['-r', PRELOAD]);
      const lost = await keyedWrite(crashing, subject, key);
      const exit = await exitOf(crashing, 'it kills itself after the commit');
      expect({ signal: exit.signal, status: lost.status, said: crashing.output() }).toEqual({
        signal: 'SIGKILL',
        status: undefined,
        said: expect.stringContaining(`crash-at-statement: SIGKILL after-commit ${statement}`),
      });
      const committed = await snapshot(subject);
      expect(committed.etag).not.toBe(before.etag);
      await subject.alter();
      const changed = await snapshot(subject);

      const retry = await keyedWrite(await liveServer(), subject, key);
      expect({
        status: retry.status,
        replayed: retry.headers['idempotent-replayed'],
        etag: retry.headers.etag,
      }).toEqual({ status: subject.status, replayed: 'true', etag: committed.etag });
      if (subject.status === 200) expect(stored(retry)).toEqual(committed.resource);
      expect(await snapshot(subject)).toEqual(changed);
    },
    2 * START_STEP_MS + 2 * REQUEST_STEP_MS + EXIT_STEP_MS + 10_000,
  );

  it(
    'a write whose process dies before its commit changed nothing: the retry runs it (no key stuck)',
    async () => {
      const subject = await seedSubject(s, 'page');
      const key = freshKey();
      const before = await snapshot(subject);
      // A short request timeout: a claim on a key need not outlive the longest a request may run.
      const crashing = await start(
        { CRASH_AT_STATEMENT: WRITE_PAGE.keyed.name, CRASH_WHEN: 'before-commit', REQUEST_TIMEOUT_MS: '1000' },
        ['-r', PRELOAD],
      );
      const lost = await keyedWrite(crashing, subject, key);
      expect({
        signal: (await exitOf(crashing, 'it kills itself before the commit')).signal,
        status: lost.status,
      }).toEqual({
        signal: 'SIGKILL',
        status: undefined,
      });
      expect(await snapshot(subject)).toEqual(before);

      // The dead request's claim may hold the key for a while: a client retries after Retry-After, as told.
      const server = await liveServer();
      const retries: Outcome[] = [];
      const retry = await waitFor(
        'the retry to be let through (not a 409)',
        async () => {
          const outcome = await keyedWrite(server, subject, key);
          retries.push(outcome);
          return outcome;
        },
        (outcome) => outcome.status !== 409,
        { timeoutMs: KEY_FREED_MS, everyMs: (outcome) => Math.max(100, Number(outcome.headers['retry-after']) * 1000) },
      );
      for (const refused of retries.slice(0, -1)) {
        expect((refused.body as { error: { sec: string } }).error.sec).toBe(CATALOGUE.IDEMPOTENCY_KEY_IN_USE.sec);
        expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      }
      expect({ status: retry.status, replayed: retry.headers['idempotent-replayed'] }).toEqual({
        status: 200,
        replayed: undefined,
      });
      const after = await snapshot(subject);
      expect(after.etag).not.toBe(before.etag);
      expect(after.resource.title).toBe('Retitled');
      expect(retry.headers.etag).toBe(after.etag);
    },
    2 * START_STEP_MS + REQUEST_STEP_MS + EXIT_STEP_MS + KEY_FREED_MS + 10_000,
  );
});
