import type { IncomingMessage, ServerResponse } from 'node:http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { traceServiceName } from '../config/tracing-env';
import { tracingStarted } from './trace-context';

/**
 * OpenTelemetry traces: the Node SDK with the http, express, nestjs-core and pg instrumentations.
 * main.ts loads this module, before anything it instruments, only when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set; everything else is the standard OTEL_* variables (service name, sampler, headers, protocol).
 * `spanProcessors` replaces the OTLP exporter (the tests' in-memory one).
 */
export function startTracing(spanProcessors?: SpanProcessor[]): NodeSDK {
  const sdk = new NodeSDK({
    serviceName: traceServiceName(),
    spanProcessors,
    instrumentations: [
      new HttpInstrumentation({
        // The id the request log line carries (logging/request-logger.ts sets the header), to go from one to the other.
        applyCustomAttributesOnSpan: (span, _request, response) => {
          const id = (response as ServerResponse).getHeader?.('x-request-id');
          if (typeof id === 'string') span.setAttribute('http.request.id', id);
        },
        ignoreIncomingRequestHook: (request: IncomingMessage) => request.url?.startsWith('/health/') ?? false,
      }),
      new ExpressInstrumentation(),
      new NestInstrumentation(),
      new PgInstrumentation({
        // A catalogue statement's span is named by its catalogue name (pg's prepared statement name), not its text.
        requestHook: (span, { query }) => {
          if (query.name) span.updateName(query.name);
        },
      }),
    ],
  });
  sdk.start();
  tracingStarted();
  return sdk;
}
