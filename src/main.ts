import { ProcessLifecycle } from './process-lifecycle';

// First of all, before the app's modules load (a second or more): a SIGTERM/SIGINT during boot must stop
// what boot has started, and as a container's PID 1 node ignores SIGTERM until it has a handler.
const lifecycle = new ProcessLifecycle();

import('./bootstrap')
  .then(({ bootstrap, bootFailure }) =>
    bootstrap(lifecycle).catch((error: unknown) => lifecycle.fail(bootFailure(error))),
  )
  .catch((error: unknown) => lifecycle.fail(error));
