import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { DomainError } from './domain-error';
import { toDomainError } from './to-domain-error';

/** The contract's error body. */
export interface ErrorBody {
  error: { id: string; code: number; sec: string; message: string; date: number };
}

/**
 * Writes any failure as the contract's error body. The occurrence id goes into res.locals so the
 * request's log line carries it; unexpected errors are logged in full under that id, never sent.
 * `write` sends the body (a public page shows it as HTML to a browser).
 */
export function sendError(
  exception: unknown,
  req: Request,
  res: Response,
  write: (res: Response, body: ErrorBody) => void = (r, body) => void r.json(body),
): void {
  const { error, unexpected } = toDomainError(exception, { method: req.method, path: req.path });
  const id = randomUUID();
  res.locals.errorId = id;
  res.locals.errorSec = error.sec;
  if (unexpected) req.log?.error({ req, err: exception, error_id: id }, 'unexpected error');
  if (res.headersSent) {
    res.end();
    return;
  }
  write(res.status(error.status).set(error.headers), errorBody(error, id));
}

export function errorBody(error: DomainError, id: string): ErrorBody {
  return { error: { id, code: error.status, sec: error.sec, message: error.message, date: Date.now() } };
}
