import { startThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { applyMigrations } from './empty-database';
import { testDatabaseUrl } from './test-config';

/**
 * Runs once before all test files: a throwaway embedded PostgreSQL unless TEST_DATABASE_URL names
 * one, then every migration. Workers inherit TEST_DATABASE_URL through the environment.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    const postgres = await startThrowawayPostgres();
    process.env.TEST_DATABASE_URL = postgres.url;
    (globalThis as { throwawayPostgres?: unknown }).throwawayPostgres = postgres;
  }
  await applyMigrations(testDatabaseUrl());
}
