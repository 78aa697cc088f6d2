import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { noneMatchHits } from './entity-tags';
import { Versioned } from './versioned';

/**
 * Nest's Express adapter, answering a route's Versioned result: its ETag header, and for a GET whose
 * If-None-Match names it a 304, whatever the request's Cache-Control says (decisions.md; Express's
 * `fresh` refuses a request with `no-cache`). Here rather than in an interceptor because Nest runs every
 * interceptor through rxjs and an AsyncResource per request, which cost a GET a third of its Node CPU.
 */
export class VersionedExpressAdapter extends ExpressAdapter {
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
