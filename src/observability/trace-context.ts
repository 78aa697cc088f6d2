import type * as Api from '@opentelemetry/api';

/**
 * What the code outside tracing.ts asks of traces: the span in progress, to store with an event, and a
 * span linked to it where the event is delivered. Both do nothing, and load no OpenTelemetry module,
 * unless tracing.ts started the SDK (main.ts loads it only with OTEL_EXPORTER_OTLP_ENDPOINT).
 */
let traced: { api: typeof Api; propagator: Api.TextMapPropagator } | null = null;

/** Called by tracing.ts once the SDK runs. */
export function tracingStarted(): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when traces are on */
  const api = require('@opentelemetry/api') as typeof Api;
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // The stored form is W3C `traceparent` whatever OTEL_PROPAGATORS says: it is read back here, not by a peer.
  traced = { api, propagator: new W3CTraceContextPropagator() };
}

/** The W3C `traceparent` of the span in progress; null when traces are off or no span is. */
export function currentTraceParent(): string | null {
  if (!traced) return null;
  const { api, propagator } = traced;
  const carrier: Record<string, string> = {};
  propagator.inject(api.context.active(), carrier, api.defaultTextMapSetter);
  return carrier.traceparent ?? null;
}

/** What work in a span may add to it, without loading OpenTelemetry itself. */
export interface SpanNotes {
  attribute(key: string, value: string | number): void;
  /** The work failed: the span's status is an error with this message. */
  failed(message: string): void;
}

const UNTRACED: SpanNotes = { attribute: () => undefined, failed: () => undefined };

/**
 * Runs `work` in a span of its own (a new trace) linked to the span `traceParent` names, when traces are on
 * and it names one: a delivery follows from the request that made the change, long after its trace ended.
 */
export async function inLinkedSpan<T>(
  name: string,
  traceParent: string | null,
  attributes: Api.Attributes,
  work: (notes: SpanNotes) => Promise<T>,
): Promise<T> {
  if (!traced) return work(UNTRACED);
  const { api, propagator } = traced;
  const { context, trace, SpanKind, SpanStatusCode, ROOT_CONTEXT } = api;
  const from = traceParent
    ? trace.getSpanContext(propagator.extract(ROOT_CONTEXT, { traceparent: traceParent }, api.defaultTextMapGetter))
    : undefined;
  const links = from && trace.isSpanContextValid(from) ? [{ context: from }] : [];
  const span = trace
    .getTracer('workspace-content-api')
    .startSpan(name, { kind: SpanKind.PRODUCER, attributes, links, root: true });
  const notes: SpanNotes = {
    attribute: (key, value) => span.setAttribute(key, value),
    failed: (message) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
  };
  try {
    return await context.with(trace.setSpan(context.active(), span), () => work(notes));
  } catch (error) {
    notes.failed((error as Error).message);
    throw error;
  } finally {
    span.end();
  }
}
