import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stdSerializers } from 'pino';
import type { Options } from 'pino-http';
import { AppConfig } from '../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * What the log keeps of an unexpected error: what it is and where it came from. Query parameters,
 * constraint details and other fields a database error carries may hold request values: dropped.
 */
function unexpectedErrorFields(error: { type?: string; name?: string; message?: string; stack?: string; code?: unknown }) {
  const scrub = fromDatabase(error) ? withoutQuotedValue : (text?: string) => text;
  // pino's error serializer, which runs first, names the class `type`.
  return { type: error?.type ?? error?.name, message: scrub(error?.message), code: error?.code, stack: scrub(error?.stack) };
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
 * pino-http's options: one JSON line per request with its id (X-Request-Id, taken from the caller
 * when well-formed), the error id and sec of a failed request, and never a header value or body:
 * tokens stay out. Its serializers see the raw request, response and error (wrapSerializers
 * false): by default pino-http first copies each request into pino's standard shape (headers,
 * remote address and port, ...) only for ours to keep three fields of it, which under load cost
 * about a seventh of the service's CPU per request whatever the log level (issue 5). The error
 * still goes through pino's standard error serializer first, as wrapping did.
 */
export function httpLoggerOptions(config: AppConfig): Options {
  return {
    level: config.logLevel,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    wrapSerializers: false,
    serializers: {
      // The path without its query string: a query may carry secrets.
      req: (req: IncomingMessage & { id: string; originalUrl?: string }) => ({ id: req.id, method: req.method, url: (req.originalUrl ?? req.url ?? '').split('?')[0] }),
      res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
      err: (error: Error) => unexpectedErrorFields(stdSerializers.err(error)),
    },
    // Nothing to add (undefined, not {}) spares a child logger per request.
    customProps: (_req, res) => {
      const locals = (res as ServerResponse & { locals?: { errorId?: string; errorSec?: string } }).locals;
      return (locals?.errorId ? { error_id: locals.errorId, error_sec: locals.errorSec } : undefined) as object;
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  };
}
