import { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

/**
 * Nest's logger while the app is being built (until configureApp switches to nestjs-pino's), on the boot's
 * pino logger: each line JSON at once, as every later line is, instead of Nest's coloured text.
 */
export function bootLogger(logger: Logger): LoggerService {
  const write =
    (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') =>
    (message: unknown, ...rest: unknown[]) => {
      const context = typeof rest[rest.length - 1] === 'string' ? rest[rest.length - 1] : undefined;
      const fields = { context, ...(message instanceof Error ? { err: message } : {}) };
      logger[level](fields, message instanceof Error ? message.message : String(message));
    };
  return {
    log: write('info'),
    error: write('error'),
    warn: write('warn'),
    debug: write('debug'),
    verbose: write('trace'),
    fatal: write('error'),
  };
}
