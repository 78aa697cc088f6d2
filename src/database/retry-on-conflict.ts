/** Thrown inside a transaction when what it read before locking changed meanwhile: run it again. */
export class StaleRead extends Error {
  constructor() {
    super('state changed before the lock was taken');
  }
}

// serialization_failure, deadlock_detected
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01']);
const ATTEMPTS = 8;

function isRetryable(error: unknown): boolean {
  if (error instanceof StaleRead) return true;
  const code =
    (error as { code?: string; driverError?: { code?: string } })?.driverError?.code ??
    (error as { code?: string })?.code;
  return code !== undefined && RETRYABLE_SQLSTATES.has(code);
}

/**
 * Runs a whole transaction again when the database reports a deadlock or serialization failure, or
 * the transaction found its unlocked read stale; clients never see those. Other errors pass through.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * attempt));
    }
  }
}
