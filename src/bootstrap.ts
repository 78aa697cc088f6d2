import 'reflect-metadata';
import pino, { Logger } from 'pino';
import { PortInUseError } from './common/port-in-use';
import { ConfigError, loadConfig } from './config/app-config';
import { DatabaseUrlError } from './database/connection-failure';
import { openDatabaseServer } from './database/database-server';
import { Retry, waitForDatabaseUrl } from './database/database-url-check';
import { EmbeddedPostgresError } from './database/embedded/embedded-postgres';
import { loggerOptions } from './logging/logger-options';
import { oneLine } from './logging/one-line';
import { LogLine, unexpected } from './logging/process-log';
import { ProcessLifecycle } from './process-lifecycle';

/**
 * Reads the configuration, opens the database and waits until it answers, then loads the app (serve.ts):
 * every step registered with `lifecycle` to be undone on a stop. The app's modules take seconds to load, so
 * they load last: a wrong DATABASE_URL is said before them.
 */
export async function bootstrap(lifecycle: ProcessLifecycle): Promise<void> {
  const config = loadConfig();
  const log = pino(loggerOptions(config));
  lifecycle.log = (message) => log.info({ context: 'ProcessLifecycle' }, message);
  const database = await lifecycle.start(openDatabaseServer(config), (db) => db.stop());
  // Abandoned at once on a stop: it may wait a minute for the database, and holds nothing meanwhile.
  const attempts = await lifecycle.start(
    waitForDatabaseUrl(config, (retry) => logRetry(log, retry)),
    undefined,
    { abandonOnStop: true },
  );
  if (attempts > 1)
    log.info({ context: 'Database', attempt: attempts }, `DATABASE_URL answered at attempt ${attempts}`);
  const { serve } = await import('./serve');
  await serve(lifecycle, config, database.url, log);
}

function logRetry(log: Logger, { attempt, pauseMs, failure }: Retry): void {
  const fields = { context: 'Database', ...failure.fields, attempt, retry_in_ms: pauseMs };
  log.warn(fields, failure.retrying(`attempt ${attempt}, next in ${pauseMs / 1000} s`));
}

/** A failed boot as one line: the message when it says what to do, with its fields; the stack for the unforeseen. */
export function bootFailure(error: unknown): LogLine {
  if (error instanceof ConfigError)
    return { msg: oneLine(error.message), fields: { context: 'Config', variables: error.variables } };
  if (error instanceof DatabaseUrlError)
    return { msg: error.message, fields: { context: 'Database', ...error.fields } };
  if (error instanceof EmbeddedPostgresError)
    return { msg: error.message, fields: { context: 'EmbeddedPostgres', postgres_log: error.evidence } };
  if (error instanceof PortInUseError) {
    const { variable, port, host, code } = error;
    return { msg: error.message, fields: { context: 'Listen', variable, port, host, code } };
  }
  return unexpected(error);
}
