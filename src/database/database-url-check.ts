import { Client } from 'pg';
import { AppConfig } from '../config/app-config';
import { DatabaseUrlError } from './connection-failure';

/** How long a boot keeps trying a database that is down (refused, timing out) before it exits 1. */
export const BOOT_PATIENCE_MS = 60_000;
const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5000;

/** A failed attempt the boot will follow with another, after `pauseMs`. */
export interface Retry {
  attempt: number;
  pauseMs: number;
  failure: DatabaseUrlError;
}

/**
 * Opens one connection to DATABASE_URL and closes it (nothing to do for the embedded database, which its
 * start connected to already): a failure is a DatabaseUrlError saying why and what to change.
 */
export async function checkDatabaseUrl(config: AppConfig): Promise<void> {
  if (!config.databaseUrl) return;
  const client = new Client({
    connectionString: config.databaseUrl,
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    application_name: 'workspace-content-api (boot)',
  });
  client.on('error', () => undefined); // the connection is closed at once; nothing later concerns us
  try {
    await client.connect();
  } catch (error) {
    throw new DatabaseUrlError(error, { url: config.databaseUrl, file: config.databaseUrlFile });
  }
  await client.end();
}

/**
 * The boot's wait for DATABASE_URL: a permanent failure (a wrong password, database or host) throws at once;
 * a passing one (refused, timed out) is told to `onRetry` and tried again after a pause that doubles from
 * half a second to 5 s, for BOOT_PATIENCE_MS, after which the last failure throws. Resolves with the attempts made.
 */
export async function waitForDatabaseUrl(config: AppConfig, onRetry: (retry: Retry) => void): Promise<number> {
  const giveUpAt = Date.now() + BOOT_PATIENCE_MS;
  for (let attempt = 1, pauseMs = FIRST_PAUSE_MS; ; attempt++, pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS)) {
    try {
      await checkDatabaseUrl(config);
      return attempt;
    } catch (error) {
      const failure = error as DatabaseUrlError;
      if (!(error instanceof DatabaseUrlError) || failure.permanent || Date.now() + pauseMs > giveUpAt) throw error;
      onRetry({ attempt, pauseMs, failure });
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
