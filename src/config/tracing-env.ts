/**
 * Traces are configured by the standard OTEL_* variables alone, read here before the app's configuration
 * loads: the SDK must start before the modules it instruments, and this file imports nothing.
 */
export const tracingRequested = (env: NodeJS.ProcessEnv = process.env): boolean =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT);

/** OTEL_SERVICE_NAME, or this service's name when it is unset. */
export const traceServiceName = (env: NodeJS.ProcessEnv = process.env): string =>
  env.OTEL_SERVICE_NAME ?? 'workspace-content-api';
