import type { ThrowawayPostgres } from './throwaway-postgres';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { throwawayPostgres?: ThrowawayPostgres }).throwawayPostgres?.destroy();
}
