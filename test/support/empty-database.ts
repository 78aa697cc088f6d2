import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runPendingMigrations } from '../../src/database/pending-migrations';
import { testConfig, testDatabaseUrl } from './test-config';

export interface EmptyDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onTestServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A database beside the test one with no migrations applied: an app on it is live but not ready. */
export async function createEmptyDatabase(): Promise<EmptyDatabase> {
  const name = `wca_empty_${randomBytes(4).toString('hex')}`;
  await onTestServer(`CREATE DATABASE ${name}`);
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  // FORCE: the app's LISTEN connection may still be closing when the spec drops it
  return { url: url.href, drop: () => onTestServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
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
