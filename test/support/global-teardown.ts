import type { ThrowawayPostgres } from '../../src/database/embedded/throwaway-postgres';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { throwawayPostgres?: ThrowawayPostgres }).throwawayPostgres?.destroy();
}
