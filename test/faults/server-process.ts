import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../support/free-port';
import { testDatabaseUrl } from '../support/test-config';
import { call, sleep } from './http-client';

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
    if (await becomesReady(server)) return server;
    server.child.kill('SIGKILL');
    if (!server.output().includes('EADDRINUSE') || attempt === PORT_ATTEMPTS)
      throw new Error(`The server did not become ready:\n${server.output()}`);
  }
}

function launch(env: Record<string, string>, port: number, nodeArgs: readonly string[]): ServerProcess {
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

/** Whether the server answers /health/ready within 30 s; false at once when it exits. */
async function becomesReady(server: ServerProcess): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && server.child.exitCode === null) {
    const res = await call(server.baseUrl, { method: 'GET', path: '/health/ready', timeoutMs: 2000 });
    // Another process's listener on the port would answer too: only while ours still runs does a 200 count.
    if (res.status === 200 && server.child.exitCode === null) return true;
    await sleep(100);
  }
  return false;
}

/**
 * Starts compiled servers on the test database for a spec file (quiet, no rate limit, `nodeArgs` for
 * each), and stops them after its tests.
 */
export function useServerProcesses(nodeArgs: readonly string[] = []) {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    }
  });
  return async (env: Record<string, string>): Promise<ServerProcess> => {
    const server = await startServer(
      { DATABASE_URL: testDatabaseUrl(), LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', ...env },
      nodeArgs,
    );
    servers.push(server);
    return server;
  };
}
