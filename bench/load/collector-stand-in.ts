import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in OpenTelemetry collector on loopback: takes every OTLP/HTTP export, keeps nothing, answers 200. */
export interface CollectorStandIn {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Exports received, and their bytes: whether the app exported at all. */
  received(): { exports: number; bytes: number };
  server: Server;
}

export async function startCollectorStandIn(): Promise<CollectorStandIn> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end(); // an empty ExportTraceServiceResponse
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received: () => ({ exports, bytes }), server };
}
