import pino, { Logger } from 'pino';
import { loggerOptions } from './logger-options';

/** One log line: its message and its fields. */
export interface LogLine {
  msg: string;
  fields: Record<string, unknown>;
}

/**
 * The process's own log, JSON lines on stdout as every other: at info before the configuration is read, and
 * for a failed boot or a crash, which it reports whatever LOG_LEVEL says (an exit 1 without a word helps nobody).
 */
export function processLog(): Logger {
  return pino(loggerOptions({ logLevel: 'info' }));
}

/** An error nobody foresaw: its message, and what it is and where it came from (the `err` serializer). */
export function unexpected(error: unknown, context?: string): LogLine {
  const msg = error instanceof Error ? error.message : String(error);
  return { msg, fields: { context, err: error instanceof Error ? error : undefined } };
}

/**
 * Node writes its warnings (a deprecation, pg's about sslmode) and an uncaught error as text on stderr: as
 * JSON lines instead, so that the service prints nothing else. An uncaught error still ends the process (1).
 */
export function jsonLinesOnly(log: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    log.warn(
      { context: 'Node', warning: { name: warning.name, code: (warning as { code?: string }).code } },
      warning.message,
    ),
  );
  process.on('uncaughtException', (error) => {
    const { msg, fields } = unexpected(error, 'Node');
    log.fatal(fields, msg);
    process.exit(1);
  });
}
