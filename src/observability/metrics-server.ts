import { createServer, Server } from 'node:http';
import { once } from 'node:events';
import { AddressInfo } from 'node:net';
import { isPortInUse, PortInUseError } from '../common/port-in-use';
import { MetricsSettings } from '../config/app-config';
import { Metrics } from './metrics';

/**
 * The metrics on a port of their own (METRICS_PORT on METRICS_HOST): GET /metrics in the Prometheus
 * text format, nothing else. Apart from the API's port, so no bearer token and no rate limit apply,
 * and a scrape cannot be confused with a request. Resolves once listening; returns how to close it.
 * The default port taken by another process (a second checkout, a second container on the host network) is
 * replaced by one the system picks, as a new embedded PostgreSQL's is; a port METRICS_PORT asked for is not.
 */
export async function serveMetrics(metrics: Metrics, { port, host, portRequired }: MetricsSettings): Promise<Server> {
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
  try {
    await listen(server, port, host);
  } catch (error) {
    if (!isPortInUse(error)) throw error;
    if (portRequired) {
      const fix = 'stop that process, or set METRICS_PORT to a free port (unset: a free one is picked; 0: no metrics)';
      throw new PortInUseError('METRICS_PORT', port, host, fix);
    }
    await listen(server, 0, host);
  }
  return server;
}

/** The port a server listens on. */
export const listeningPort = (server: Server): number => (server.address() as AddressInfo).port;

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

async function listen(server: Server, port: number, host: string): Promise<void> {
  server.listen(port, host);
  await once(server, 'listening');
}
