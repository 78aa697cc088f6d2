import { Client } from 'pg';
import { ON_CITUS } from '../../src/database/citus/citus-probe';
import { startThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { applyMigrations } from './empty-database';
import { testDatabaseUrl } from './test-config';

/**
 * Runs once before all test files: a throwaway embedded PostgreSQL unless TEST_DATABASE_URL names
 * one, then every migration; whether it is a Citus coordinator (support/citus.ts), and its major
 * (support/server-major.ts). Workers inherit TEST_DATABASE_URL, TEST_DATABASE_CITUS and
 * TEST_DATABASE_MAJOR through the environment.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    const postgres = await startThrowawayPostgres();
    process.env.TEST_DATABASE_URL = postgres.url;
    (globalThis as { throwawayPostgres?: unknown }).throwawayPostgres = postgres;
  }
  await applyMigrations(testDatabaseUrl());
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ citus: boolean }>(ON_CITUS.text);
    process.env.TEST_DATABASE_CITUS = String(rows[0].citus);
    const version = await client.query<{ num: string }>(`SELECT current_setting('server_version_num') AS num`);
    process.env.TEST_DATABASE_MAJOR = String(Math.floor(Number(version.rows[0].num) / 10000));
  } finally {
    await client.end();
  }
}
