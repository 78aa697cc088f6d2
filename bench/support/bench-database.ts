import { startThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';

export interface BenchDatabase {
  url: string;
  /** `DATABASE_URL` (the caller's server) or `embedded` (a throwaway cluster started here). */
  kind: 'DATABASE_URL' | 'embedded';
  /** Deletes the throwaway cluster; leaves a DATABASE_URL server alone. */
  close(): Promise<void>;
}

/**
 * The PostgreSQL a benchmark runs on: `DATABASE_URL` when set, otherwise a throwaway embedded
 * cluster in a fresh temporary directory (the same one the e2e tests use), deleted by close().
 * Benchmarks seed their own workspace with a unique team_id, so a shared server is safe to use.
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const url = process.env.DATABASE_URL;
  if (url) return { url, kind: 'DATABASE_URL', close: () => Promise.resolve() };
  const postgres = await startThrowawayPostgres('wca_bench');
  return { url: postgres.url, kind: 'embedded', close: () => postgres.destroy() };
}
