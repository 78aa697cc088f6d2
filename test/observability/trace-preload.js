// Preloaded into the compiled server (node -r): starts its tracing with the SDK's in-memory exporter instead of
// OTLP, and serves the finished spans as JSON on TRACE_DUMP_PORT. Without TRACE_DUMP_PORT it reports, on
// MODULES_DUMP_PORT, which modules are loaded (require.cache).
const { createServer } = require('node:http');
const { join } = require('node:path');

const dist = join(__dirname, '..', '..', 'dist', 'src');
if (process.env.TRACE_DUMP_PORT) {
  const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const exporter = new InMemorySpanExporter();
  require(join(dist, 'observability', 'tracing.js')).startTracing([new SimpleSpanProcessor(exporter)]);
  serve(Number(process.env.TRACE_DUMP_PORT), () =>
    exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      parentSpanId: span.parentSpanContext?.spanId ?? span.parentSpanId,
      attributes: span.attributes,
      links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
    })),
  );
} else {
  serve(Number(process.env.MODULES_DUMP_PORT), () => Object.keys(require.cache));
}

function serve(port, answer) {
  const server = createServer((_req, res) => res.end(JSON.stringify(answer())));
  server.listen(port, '127.0.0.1');
  server.unref();
}
