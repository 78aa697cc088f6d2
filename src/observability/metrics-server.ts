import { createServer, Server } from 'node:http';
import { once } from 'node:events';
import { Metrics } from './metrics';

/**
 * The metrics on a port of their own (METRICS_PORT on METRICS_HOST): GET /metrics in the Prometheus
 * text format, nothing else. Apart from the API's port, so no bearer token and no rate limit apply,
 * and a scrape cannot be confused with a request. Resolves once listening; returns how to close it.
 */
export async function serveMetrics(metrics: Metrics, port: number, host: string): Promise<Server> {
  const registry = metrics.registry!;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`),
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
