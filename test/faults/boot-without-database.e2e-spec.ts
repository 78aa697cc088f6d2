import { createServer, Server, Socket } from 'node:net';
import { freePort } from '../../support/free-port';
import { LEVEL, LogEntry, useBoots } from './boot-process';
import { stepsShowing } from './server-steps';

/** Exiting once told to, on a loaded machine: seconds, not this. */
const EXIT_STEP_MS = 20_000;

const attempt = (cause: string, n: number) => (entry: LogEntry) => entry.cause === cause && entry.attempt === n;

describe('Boot with a DATABASE_URL nothing answers yet (e2e)', () => {
  const boot = useBoots();
  let silent: Server;
  const held = new Set<Socket>();
  beforeAll(() => {
    // Accepts connections and never speaks: a PostgreSQL behind a black hole, as the client sees it.
    silent = createServer((socket) => held.add(socket));
    return new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    held.forEach((socket) => socket.destroy());
    return new Promise((resolve) => silent.close(resolve));
  });

  it('logs each refused attempt, the first within 5 s, pausing longer each time; SIGTERM ends it, exit 0', async () => {
    const port = await freePort(); // nobody listens: connections are refused
    const service = await boot({ DATABASE_URL: `postgres://nobody@127.0.0.1:${port}/none`, LOG_LEVEL: 'info' });
    const step = stepsShowing(() => [service]);
    const first = await service.says('the first refused attempt', attempt('connection refused', 1));
    expect(first).toMatchObject({
      level: LEVEL.warn,
      variable: 'DATABASE_URL',
      url: `postgres://nobody@127.0.0.1:${port}/none`,
      msg: expect.stringMatching(
        /^DATABASE_URL postgres:\S+: connection refused \(connect ECONNREFUSED .*\); attempt 1/,
      ),
    });
    const second = await step('a second attempt, after the first pause', EXIT_STEP_MS, () =>
      service.says('the second attempt', attempt('connection refused', 2)),
    );
    expect(second.retry_in_ms).toBeGreaterThan(first.retry_in_ms as number);

    service.child.kill('SIGTERM');
    expect((await step('the service exits after SIGTERM', EXIT_STEP_MS, () => service.exited)).code).toBe(0);
    expect(service.entries().map((entry) => entry.msg)).toContain(
      'SIGTERM: finishing in-flight requests, then closing the database',
    );
    expect(service.notJson()).toEqual([]);
    expect(service.stderr()).toBe('');
  });

  it('logs an attempt that timed out as such within 5 s, and tries again', async () => {
    const { port } = silent.address() as { port: number };
    const service = await boot({
      DATABASE_URL: `postgres://nobody@127.0.0.1:${port}/none`,
      DB_CONNECT_TIMEOUT_MS: '1000',
    });
    expect(await service.says('the first attempt timing out', attempt('timeout', 1))).toMatchObject({
      level: LEVEL.warn,
      variable: 'DATABASE_URL',
    });
    expect(service.child.exitCode).toBeNull();
    expect(service.notJson()).toEqual([]);
  });
});
