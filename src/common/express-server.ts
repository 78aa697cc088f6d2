import type { Express } from 'express';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * An HTTP server for `app` whose requests and responses are born with Express's prototypes. Express
 * gives each request and response its own prototype as it arrives (`Object.setPrototypeOf`), which
 * V8 answers by deoptimising every later access to them: a bare Express app costs 3 times the CPU per
 * request of one that does not (expressjs/express#5998). Setting the prototype an object already has
 * changes nothing, so Express's own step becomes free.
 */
export function createExpressServer(app: Express): Server {
  return createServer({ IncomingMessage: requestClass(app), ServerResponse: responseClass(app) }, app);
}

// Node's IncomingMessage and ServerResponse are functions, not classes: a function can make instances
// whose prototype is exactly Express's, where `class extends` would put its own in between.
function requestClass(app: Express): typeof IncomingMessage {
  function ExpressRequest(this: IncomingMessage, socket: Socket): void {
    Reflect.apply(IncomingMessage, this, [socket]);
  }
  ExpressRequest.prototype = app.request;
  return ExpressRequest as unknown as typeof IncomingMessage;
}

function responseClass(app: Express): typeof ServerResponse {
  function ExpressResponse(this: ServerResponse, req: IncomingMessage, options?: object): void {
    Reflect.apply(ServerResponse, this, [req, options]);
  }
  ExpressResponse.prototype = app.response;
  return ExpressResponse as unknown as typeof ServerResponse;
}
