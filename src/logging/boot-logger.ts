import { LoggerService } from '@nestjs/common';
import pino from 'pino';
import { AppConfig } from '../config/app-config';
import { loggerOptions } from './logger-options';

/**
 * Nest's logger while the app is being built (until configureApp switches to nestjs-pino's): each line
 * JSON at once, as every later line is, so that a boot retrying a wrong DATABASE_URL says so attempt by
 * attempt instead of holding coloured text back until it gives up.
 */
export function bootLogger(config: AppConfig): LoggerService {
  const logger = pino(loggerOptions(config));
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
