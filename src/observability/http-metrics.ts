import type { ResponseObserver } from '../logging/request-logger';
import { Metrics } from './metrics';

/** Methods kept as a label value; any other is `_OTHER` (OpenTelemetry's convention), so labels stay bounded. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every request into http_server_request_duration_seconds, by its route's template as Express
 * matched it; a request that matched no route (404, or refused before routing) is `unmatched`, so no
 * raw path, and no id in one, becomes a label. Called by the request logger when the response ends, so
 * that one pair of listeners serves both: a middleware of its own adds a layer and two more per request.
 */
export function httpMetrics(metrics: Metrics): ResponseObserver {
  return (req, res, seconds) => {
    const route = (req.route as { path?: unknown } | undefined)?.path;
    metrics.httpRequest(
      KNOWN_METHODS.has(req.method) ? req.method : '_OTHER',
      typeof route === 'string' ? req.baseUrl + route : 'unmatched',
      res.statusCode,
      seconds,
    );
  };
}
