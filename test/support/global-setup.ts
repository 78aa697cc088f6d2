import { Client } from 'pg';
import { ON_CITUS } from '../../src/database/citus/citus-probe';
import { startThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { applyMigrations } from './empty-database';
import { testDatabaseUrl } from './test-config';

/**
 * Runs once before all test files: a throwaway embedded PostgreSQL unless TEST_DATABASE_URL names
 * one, then every migration; and whether it is a Citus coordinator (support/citus.ts). Workers inherit
 * TEST_DATABASE_URL and TEST_DATABASE_CITUS through the environment.
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
  } finally {
    await client.end();
  }
}
