/**
 * Preloaded into the app's server process (`node -r`) by `npm run bench -- --tracing`: starts the
 * service's own tracing (src/observability/tracing.ts) before server-child.ts loads http and pg, as
 * src/main.ts does before the app, so that the instrumentations patch them.
 */
import { startTracing } from '../../src/observability/tracing';

startTracing();
