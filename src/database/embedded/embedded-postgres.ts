import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Client } from 'pg';
import { initialiseCluster, PASSWORD, USER } from './cluster-init';
import { EmbeddedPostgresError, EmbeddedPostgresErrors } from './embedded-postgres-errors';
import { ClusterPort, clusterPort, freePort, writePortFile } from './embedded-port';
import { postgresIdentity, ProcessIdentity } from './os-user';
import { postgresBinDir } from './postgres-binaries';
import { fatalMessage, logFile, logLength, logTail, portWasTaken } from './postgres-log';
import { PostgresToolError, runPostgresTool } from './postgres-tool';
import { readPostmasterPid } from './postmaster-pid';
import { named } from '../named-parameters';

export { EmbeddedPostgresError } from './embedded-postgres-errors';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /**
   * EMBEDDED_PG_PORT: a port for this start instead of the one the data directory remembers (picked free
   * when created).
   */
  port?: number;
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

/** How long to wait for a server to start, ours (pg_ctl -t) or another process's. */
const START_TIMEOUT_S = 60;
/** How many other ports a first start tries when the one it picked was taken before it listened. */
const REPICKS = 3;

type PgCtl = (...args: string[]) => Promise<void>;

/**
 * A PostgreSQL cluster from the binaries embedded-postgres ships, driven with initdb and pg_ctl.
 * The server runs detached (pg_ctl start), so the CLI and the service can share one data directory
 * whichever starts first. Each data directory remembers its own port (see embedded-port.ts), so
 * checkouts side by side do not collide. Every failure to start is an EmbeddedPostgresError.
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
  const identity = runAs();
  const pgCtl: PgCtl = (...args) => runPostgresTool(join(bin, 'pg_ctl'), ['-D', dataDir, ...args], identity);

  const created = await initialiseCluster(dataDir, bin, identity);
  const wanted = await clusterPort(dataDir, options.port);
  // A port this start picked moments ago may have been taken since by another process: pick again.
  const repick =
    created && wanted.source === 'port file' ? () => rememberFreePort(dataDir, wanted, identity) : undefined;
  for (let attempt = 1; ; attempt++) {
    const startedHere = await ensureRunning(dataDir, pgCtl, wanted, repick);
    // Another process's start may have used EMBEDDED_PG_PORT.
    const port = (await readPostmasterPid(dataDir))?.port || wanted.port;
    const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
    const stopIfUnused = async () => {
      if (startedHere && !(await othersConnected(base))) await pgCtl('stop', '-w', '-m', 'fast').catch(() => undefined);
    };
    let step = `connecting to it on port ${port}`;
    let lease: Client | undefined;
    try {
      lease = await connect(`${base}/postgres`);
      step = `creating database ${options.database}`;
      await createDatabase(lease, options.database);
    } catch (error) {
      await lease?.end().catch(() => undefined);
      await stopIfUnused();
      // The process that started it stopped it as we came, being done with it: start it ourselves.
      if (!startedHere && attempt < 3 && (await stoppingOrGone(dataDir, pgCtl))) continue;
      throw await attachFailure(dataDir, port, !startedHere && !lease, `${step} failed (${errorMessage(error)})`);
    }
    const held = lease;
    return {
      url: `${base}/${options.database}`,
      stop: async ({ force = false } = {}) => {
        await held.end().catch(() => undefined);
        if (force && startedHere) await pgCtl('stop', '-w', '-m', 'fast').catch(() => undefined);
        else await stopIfUnused();
      },
    };
  }
}

/** Stops a cluster and deletes its data; for throwaway test databases. */
export async function destroyEmbeddedPostgres(dataDir: string): Promise<void> {
  const identity = postgresIdentity();
  const pgCtl = join(postgresBinDir(), 'pg_ctl');
  await runPostgresTool(pgCtl, ['-D', resolve(dataDir), 'stop', '-w', '-m', 'immediate'], identity).catch(
    () => undefined,
  );
  await rm(dataDir, { recursive: true, force: true });
}

/** PostgreSQL refuses to run as root: as root it runs as the postgres user, created when missing. */
function runAs(): ProcessIdentity {
  try {
    return postgresIdentity();
  } catch (error) {
    throw EmbeddedPostgresErrors.noPostgresUser(errorMessage(error).split('\n')[0]);
  }
}

/** Another free port, remembered in place of `wanted`'s, for a cluster created by this start. */
async function rememberFreePort(dataDir: string, wanted: ClusterPort, identity: ProcessIdentity): Promise<ClusterPort> {
  const port = await freePort();
  await writePortFile(dataDir, port, identity);
  return { ...wanted, port };
}

/**
 * Starts the server unless it runs already; true when this call started it. A server another
 * process is starting (a concurrent first start, or the CLI and the service at once) is waited for.
 * When `wanted`'s port is taken, `repick` (if given) names another, up to REPICKS times.
 */
async function ensureRunning(
  dataDir: string,
  pgCtl: PgCtl,
  wanted: ClusterPort,
  repick?: () => Promise<ClusterPort>,
  repicked = 0,
): Promise<boolean> {
  const deadline = Date.now() + START_TIMEOUT_S * 1000;
  // Someone else's server: ours to use once ready; after the deadline the connection says what is wrong.
  while (await isRunning(pgCtl)) {
    if ((await readPostmasterPid(dataDir))?.status === 'ready' || Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 100));
  }
  const logStart = await logLength(dataDir);
  const flags = `-p ${wanted.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
  try {
    await pgCtl('start', '-w', '-t', String(START_TIMEOUT_S), '-l', logFile(dataDir), '-o', flags);
    return true;
  } catch (error) {
    if (await isRunning(pgCtl)) return ensureRunning(dataDir, pgCtl, wanted); // another process won the race
    const logged = await logTail(dataDir, logStart);
    if (portWasTaken(logged.lines)) {
      if (repick && repicked < REPICKS) return ensureRunning(dataDir, pgCtl, await repick(), repick, repicked + 1);
      throw EmbeddedPostgresErrors.portInUse(dataDir, wanted, logged);
    }
    // pg_ctl can fail before the server logs anything (a data directory it may not read, say): then its own words.
    const said =
      logged.lines.length || !(error instanceof PostgresToolError)
        ? logged
        : { source: "pg_ctl's output", lines: error.stderrLines };
    throw EmbeddedPostgresErrors.startFailed(dataDir, fatalMessage(logged.lines) ?? errorMessage(error), said);
  }
}

async function isRunning(pgCtl: PgCtl): Promise<boolean> {
  return pgCtl('status').then(
    () => true,
    () => false,
  );
}

/** Whether the server is going away or gone, rather than running without answering us. */
async function stoppingOrGone(dataDir: string, pgCtl: PgCtl): Promise<boolean> {
  const lock = await readPostmasterPid(dataDir);
  return !lock || lock.status === 'stopping' || !(await isRunning(pgCtl));
}

/** A server we did not start that nobody answers for points at a lock file left by a crash. */
async function attachFailure(
  dataDir: string,
  port: number,
  unanswered: boolean,
  cause: string,
): Promise<EmbeddedPostgresError> {
  const evidence = await logTail(dataDir);
  const lock = await readPostmasterPid(dataDir);
  if (unanswered && lock) return EmbeddedPostgresErrors.notAnswering(dataDir, port, lock.pid, cause, evidence);
  return EmbeddedPostgresErrors.startFailed(dataDir, cause, evidence);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function connect(url: string): Promise<Client> {
  const { Client } = await import('pg');
  const client = new Client({
    connectionString: url,
    application_name: 'workspace-content-api (lease)',
    connectionTimeoutMillis: 10_000, // whatever holds the port may not speak PostgreSQL
  });
  // A lost connection (the server stopped under us) must not crash the process; the app's pool notices on its own.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Creates the database unless it exists; another process creating it at the same moment is no failure. */
async function createDatabase(client: Client, database: string): Promise<void> {
  const exists = async () =>
    (await client.query(...named('SELECT 1 FROM pg_database WHERE datname = :database', { database }))).rowCount !== 0;
  if (await exists()) return;
  await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`).catch(async (error: unknown) => {
    if (!(await exists())) throw error;
  });
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
