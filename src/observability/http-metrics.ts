import type { RequestHandler } from 'express';
import { Metrics } from './metrics';

/** Methods kept as a label value; any other is `_OTHER` (OpenTelemetry's convention), so labels stay bounded. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every request to its response (or its closed connection) into http_server_request_duration_seconds,
 * by its route's template as Express matched it; a request that matched no route (404, or refused before
 * routing) is `unmatched`, so no raw path, and no id in one, becomes a label.
 */
export function httpMetrics(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const ended = () => {
      res.off('finish', ended);
      res.off('close', ended);
      const route = (req.route as { path?: unknown } | undefined)?.path;
      metrics.httpRequest(
        KNOWN_METHODS.has(req.method) ? req.method : '_OTHER',
        typeof route === 'string' ? req.baseUrl + route : 'unmatched',
        res.statusCode,
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    };
    res.on('finish', ended);
    res.on('close', ended);
    next();
  };
}
