import type { RequestHandler, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Told of every request when its response ends, with its duration (the HTTP metrics). */
export type ResponseObserver = (req: Request, res: Response, seconds: number) => void;

/**
 * One log line per request when its response is sent or its connection closes: the request (id,
 * method, path), its status, how long it took and, for a failure, the error's id and sec
 * (res.locals, set by sendError). Successes log at info (health probes at debug), 4xx at warn, 5xx at
 * error. The request id is the caller's X-Request-Id when well-formed, else a new UUID; it is echoed in
 * the response.
 * `req.log` is the logger itself: no child logger per request, whose bindings would be serialized
 * as each request arrives, at any level. `observer`, when given, is told at the same moment.
 */
export function requestLogger(logger: Logger, observer?: ResponseObserver): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    req.id = requestId(req, res);
    req.log = logger;
    const ended = () => {
      res.off('finish', ended);
      res.off('close', ended);
      const elapsedMs = performance.now() - started;
      logResponse(logger, req, res, Math.round(elapsedMs));
      observer?.(req, res, elapsedMs / 1000);
    };
    res.on('finish', ended);
    res.on('close', ended);
    next();
  };
}

function requestId(req: Request, res: Response): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** An orchestrator's probe (every few seconds) that found the service well: no news. */
const healthProbe = (req: Request) => req.path.startsWith('/health/');

function logResponse(logger: Logger, req: Request, res: Response, responseTime: number): void {
  const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : healthProbe(req) ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const { errorId, errorSec } = res.locals as { errorId?: string; errorSec?: string };
  const error = errorId ? { error_id: errorId, error_sec: errorSec } : {};
  const message =
    res.statusCode >= 500 ? 'request errored' : res.writableEnded ? 'request completed' : 'request aborted';
  logger[level]({ req, res, responseTime, ...error }, message);
}
