import { tracingRequested } from './config/tracing-env';
import { jsonLinesOnly, processLog, unexpected } from './logging/process-log';
import { ProcessLifecycle } from './process-lifecycle';

// First of all, before the app's modules load (a second or more): a SIGTERM/SIGINT during boot must stop
// what boot has started, and as a container's PID 1 node ignores SIGTERM until it has a handler.
const log = processLog();
const lifecycle = new ProcessLifecycle(log);
jsonLinesOnly(log);

// Traces only when asked: then the SDK starts before the modules it instruments load; otherwise none of it loads.
const tracing = tracingRequested()
  ? import('./observability/tracing').then(({ startTracing }) =>
      lifecycle.start(Promise.resolve(startTracing()), (sdk) => sdk.shutdown()),
    )
  : Promise.resolve();

tracing
  .then(() => import('./bootstrap'))
  .then(({ bootstrap, bootFailure }) =>
    bootstrap(lifecycle).catch((error: unknown) => lifecycle.fail(bootFailure(error))),
  )
  .catch((error: unknown) => lifecycle.fail(unexpected(error)));
