import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../support/free-port';
import { testDatabaseUrl } from '../support/test-config';
import { waitFor } from '../support/wait-for';
import { call } from './http-client';
import { stepsShowing } from './server-steps';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves when the process has exited, with when and how. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  /** What it printed, for failure messages. */
  output(): string;
}

/** Launches that lost its port to another process between freePort() and its listen: then a new port. */
const PORT_ATTEMPTS = 3;
/** How long a launch may take to answer /health/ready: booting on a loaded machine takes seconds, not this. */
const READY_WITHIN_MS = 30_000;
/** A step's deadline for startServer: its readiness wait, and time for the launch a taken port costs. */
export const START_STEP_MS = READY_WITHIN_MS + 10_000;

/**
 * Starts the compiled server (`node dist/src/main.js`, what `npm start` runs) on a free port and waits until
 * it is ready. `nodeArgs` go before the script (`-r preload.js`).
 */
export async function startServer(
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<ServerProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm test builds it first (npm run build)`);
  for (let attempt = 1; ; attempt++) {
    const server = launch(env, await freePort(), nodeArgs);
    try {
      if (await becomesReady(server)) return server;
    } catch (error) {
      server.child.kill('SIGKILL');
      throw new Error(`${(error as Error).message}\nThe server printed:\n${server.output()}`, { cause: error });
    }
    if (!server.output().includes('EADDRINUSE') || attempt === PORT_ATTEMPTS)
      throw new Error(`The server exited (${server.child.exitCode}) before it was ready:\n${server.output()}`);
  }
}

/** Spawns the compiled server on `port`, without waiting for anything. */
export function launch(env: Record<string, string>, port: number, nodeArgs: readonly string[] = []): ServerProcess {
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    // No webhook delivery unless asked (the webhook specs' deliveries are theirs); no metrics port (one for all).
    env: { PATH: process.env.PATH, PORT: String(port), WEBHOOK_DELIVERY: 'false', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
  );
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** Whether the server answers /health/ready (true) or exits first (false); throws past READY_WITHIN_MS. */
async function becomesReady(server: ServerProcess): Promise<boolean> {
  const look = async () => {
    const res = await call(server.baseUrl, { method: 'GET', path: '/health/ready', timeoutMs: 2000 });
    return { ready: res.status ?? res.error, exitCode: server.child.exitCode };
  };
  // Another process's listener on the port would answer too: only while ours still runs does a 200 count.
  const seen = await waitFor(
    'the server to answer /health/ready or exit',
    look,
    (s) => s.exitCode !== null || s.ready === 200,
    {
      timeoutMs: READY_WITHIN_MS,
      everyMs: 100,
    },
  );
  return seen.exitCode === null;
}

/**
 * Starts compiled servers on the test database for a spec file (quiet, no rate limit, `nodeArgs` for
 * each), each as a step, and stops them after its tests; its steps show what they printed.
 */
export function useServerProcesses(nodeArgs: readonly string[] = []) {
  const servers: ServerProcess[] = [];
  const step = stepsShowing(() => servers);
  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    }
  });
  const start = (env: Record<string, string>): Promise<ServerProcess> =>
    step('start a server', START_STEP_MS, async () => {
      const server = await startServer(
        { DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', ...env },
        nodeArgs,
      );
      servers.push(server);
      return server;
    });
  return { start, step };
}
