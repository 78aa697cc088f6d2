import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { AppConfig } from '../config/app-config';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * One JSON line per request with its id (X-Request-Id, taken from the caller when well-formed),
 * the error id and sec of a failed request, and never a header value or body: tokens stay out.
 */
/**
 * What the log keeps of an unexpected error: what it is and where it came from. Query parameters,
 * constraint details and other fields a database error carries may hold request values: dropped.
 */
function unexpectedErrorFields(error: { name?: string; message?: string; stack?: string; code?: unknown }) {
  return { type: error?.name, message: error?.message, code: error?.code, stack: error?.stack };
}

export function httpLoggerOptions(config: AppConfig): Options {
  return {
    level: config.logLevel,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      // The path without its query string: a query may carry secrets.
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: unexpectedErrorFields,
    },
    customProps: (_req, res) => {
      const locals = (res as ServerResponse & { locals?: { errorId?: string; errorSec?: string } }).locals;
      return locals?.errorId ? { error_id: locals.errorId, error_sec: locals.errorSec } : {};
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
  };
}
