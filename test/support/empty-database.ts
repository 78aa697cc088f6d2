import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, MigrationInterface } from 'typeorm';
import { ON_CITUS } from '../../src/database/citus/citus-probe';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runPendingMigrations } from '../../src/database/pending-migrations';
import { testConfig, testDatabaseUrl } from './test-config';

export interface EmptyDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The test database's Citus workers, as URLs of their server with the test's credentials; none on one node. */
async function citusWorkers(): Promise<URL[]> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const [{ citus }] = (await client.query<{ citus: boolean }>(ON_CITUS.text)).rows;
    if (!citus) return [];
    const { rows } = await client.query<{ host: string; port: number }>(
      `SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid <> 0 ORDER BY nodeid`,
    );
    return rows.map(({ host, port }) =>
      Object.assign(new URL(testDatabaseUrl()), { hostname: host, port: String(port) }),
    );
  } finally {
    await client.end();
  }
}

function databaseAt(server: URL | string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * A database beside the test one with no migrations applied: an app on it is live but not ready. On
 * Citus, a cluster of its own: the database on every node, the extension in each, the workers added.
 */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const name = `wca_empty_${randomBytes(4).toString('hex')}`;
  const servers = [new URL(testDatabaseUrl()), ...(await citusWorkers())];
  for (const server of servers) await onServer(server.href, `CREATE DATABASE ${name}`);
  if (servers.length > 1) {
    for (const server of servers) await onServer(databaseAt(server, name), 'CREATE EXTENSION citus');
    const [coordinator, ...workers] = servers;
    await onServer(
      databaseAt(coordinator, name),
      [
        `SELECT citus_set_coordinator_host('${coordinator.hostname}', ${coordinator.port})`,
        ...workers.map((worker) => `SELECT citus_add_node('${worker.hostname}', ${worker.port})`),
      ].join(';'),
    );
  }
  return {
    url: databaseAt(servers[0], name),
    // FORCE: the app's LISTEN connection may still be closing when the spec drops it
    drop: async () => {
      for (const server of servers) await onServer(server.href, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * A database beside the test one with every migration applied: for a spec whose server processes must not
 * touch other specs' rows (a delivering process it kills would redeliver their events).
 */
export async function createMigratedDatabase(): Promise<EmptyDatabase> {
  const database = await createEmptyDatabase();
  await applyMigrations(database.url);
  return database;
}

/** Applies every pending migration to the database at `url`, as the service does at boot. */
export async function applyMigrations(url: string): Promise<void> {
  const migrator = new DataSource(dataSourceOptions(url, testConfig()));
  await migrator.initialize();
  try {
    await runPendingMigrations(migrator);
  } finally {
    await migrator.destroy();
  }
}

/** Runs these migrations (each once, by name) on the database at `url`: a spec that builds an older schema. */
export async function runMigrations(url: string, migrations: Array<new () => MigrationInterface>): Promise<void> {
  const source = new DataSource({ ...dataSourceOptions(url, testConfig()), migrations });
  await source.initialize();
  try {
    await source.runMigrations({ transaction: 'each' });
  } finally {
    await source.destroy();
  }
}
