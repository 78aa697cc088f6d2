import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerOptions, stdSerializers } from 'pino';
import type { AppConfig } from '../config/app-config';

/**
 * What the log keeps of an unexpected error: what it is and where it came from. Query parameters,
 * constraint details and other fields a database error carries may hold request values: dropped.
 */
function unexpectedErrorFields(error: {
  type?: string;
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
}) {
  const scrub = fromDatabase(error) ? withoutQuotedValue : (text?: string) => text;
  // pino's error serializer, which runs first, names the class `type`.
  return {
    type: error?.type ?? error?.name,
    message: scrub(error?.message),
    code: error?.code,
    stack: scrub(error?.stack),
  };
}

/** A PostgreSQL error (raw or wrapped by TypeORM) carries its SQLSTATE as `code`. */
function fromDatabase(error: { code?: unknown }): boolean {
  return typeof error?.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code);
}

/**
 * PostgreSQL quotes the offending value in its message ('invalid input syntax for type integer: "..."'),
 * and the stack repeats the message: keep the sentence and the frames, not what was quoted.
 */
function withoutQuotedValue(text?: string): string | undefined {
  if (text === undefined) return undefined;
  const frames = text.indexOf('\n    at ');
  const head = frames < 0 ? text : text.slice(0, frames);
  return head.replace(/"[\s\S]*"/, '"(value)"') + (frames < 0 ? '' : text.slice(frames));
}

/**
 * The request log's pino options: its level, and serializers that keep of a request its id, method
 * and path (the query string may carry secrets), of a response its status, and of an unexpected
 * error what it is and where it came from. Never a header value or a body: tokens stay out.
 */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    serializers: {
      req: (req: IncomingMessage & { id?: string; originalUrl?: string }) => ({
        id: req.id,
        method: req.method,
        url: (req.originalUrl ?? req.url ?? '').split('?')[0],
      }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      err: (error: Error) => unexpectedErrorFields(stdSerializers.err(error)),
    },
  };
}
