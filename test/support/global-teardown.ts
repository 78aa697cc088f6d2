import type { ThrowawayPostgres } from '../../support/throwaway-postgres';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { throwawayPostgres?: ThrowawayPostgres }).throwawayPostgres?.destroy();
}
