import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runPendingMigrations } from '../../src/database/pending-migrations';
import { startThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';
import { testConfig } from './test-config';

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
  const config = testConfig();
  const db = new DataSource(dataSourceOptions(config.databaseUrl!, config));
  await db.initialize();
  try {
    await runPendingMigrations(db);
  } finally {
    await db.destroy();
  }
}
