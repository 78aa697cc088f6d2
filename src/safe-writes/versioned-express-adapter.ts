import { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response } from 'express';
import { createExpressServer } from '../common/express-server';
import { noneMatchHits } from './entity-tags';
import { Versioned } from './versioned';

/**
 * Nest's Express adapter, answering a route's Versioned result: its ETag header, and for a GET whose
 * If-None-Match names it a 304, whatever the request's Cache-Control says (decisions.md; Express's
 * `fresh` refuses a request with `no-cache`). Here rather than in an interceptor because Nest runs every
 * interceptor through rxjs and an AsyncResource per request, which cost a GET a third of its Node CPU.
 */
export class VersionedExpressAdapter extends ExpressAdapter {
  /** Over HTTP (the service's only transport), on a server that spares Express its per-request prototype change. */
  initHttpServer(options: NestApplicationOptions): void {
    if (options.httpsOptions || options.forceCloseConnections) return super.initHttpServer(options);
    this.httpServer = createExpressServer(this.getInstance<Express>());
  }

  reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof Versioned)) return super.reply(response, body, statusCode);
    response.setHeader('ETag', body.etag);
    if (body.location !== undefined) response.setHeader('Location', body.location);
    const { method, headers } = response.req;
    if ((method === 'GET' || method === 'HEAD') && noneMatchHits(headers['if-none-match'], body.etag)) {
      return response.status(304).end();
    }
    return super.reply(response, body.body, statusCode);
  }
}
