// Preload (`node -r`): the moment the service first loads NestJS, it sends itself SIGTERM, as `docker
// stop` would while a container's node is still loading the app's modules, and says whether it had a handler.
const Module = require('node:module');
const load = Module._load;
let sent = false;
Module._load = function (request, ...rest) {
  if (!sent && request === '@nestjs/core') {
    sent = true;
    process.stderr.write(`stop-while-loading: SIGTERM listeners ${process.listenerCount('SIGTERM')}\n`);
    process.kill(process.pid, 'SIGTERM');
  }
  return load.call(this, request, ...rest);
};
