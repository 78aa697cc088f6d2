import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { call } from '../faults/http-client';
import { useServerProcesses } from '../faults/server-process';
import { waitFor } from '../support/wait-for';

/** Twice the server's 10 s REQUEST_TIMEOUT_MS: it answers every request before, however loaded the machine. */
const TIMEOUT_MS = 20_000;

/** What README says of OTEL_EXPORTER_OTLP_ENDPOINT: it exports the instrumentations' metrics as well as traces. */
describe('OTEL_EXPORTER_OTLP_ENDPOINT (e2e)', () => {
  jest.setTimeout(90_000);
  const { start, step } = useServerProcesses();
  const received: string[] = [];
  let collector: Server;
  beforeAll(() => {
    // An OTLP/HTTP collector that keeps the path of each export and accepts it.
    collector = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      req.resume().on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
    });
    return new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => collector.close(resolve)));

  it('exports metrics by OTLP too, to the same collector as the traces', async () => {
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    // Every half second instead of the default minute, so that the test need not wait for one.
    const server = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_METRIC_EXPORT_INTERVAL: '500' });
    expect((await call(server.baseUrl, { method: 'GET', path: '/health/ready', timeoutMs: TIMEOUT_MS })).status).toBe(
      200,
    );
    await step('a metrics export', TIMEOUT_MS, () =>
      waitFor(
        'POST /v1/metrics',
        () => [...received],
        (paths) => paths.includes('POST /v1/metrics'),
        {
          timeoutMs: TIMEOUT_MS,
        },
      ),
    );
  });
});
