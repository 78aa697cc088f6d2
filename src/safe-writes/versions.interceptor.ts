import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { noneMatchHits } from './entity-tags';
import { Versioned } from './versioned';

/**
 * Sends the ETag of a Versioned answer, and answers a GET whose If-None-Match names it with 304. Express
 * turns the answer into a 304 when `req.fresh`; its own `fresh` says no to a request with
 * `Cache-Control: no-cache`, which decisions.md overrules, so the comparison here takes its place.
 */
@Injectable()
export class VersionsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    return next.handle().pipe(
      map((answer: unknown) => {
        if (!(answer instanceof Versioned)) return answer;
        const request = http.getRequest<Request>();
        http.getResponse<Response>().setHeader('ETag', answer.etag);
        if (request.method === 'GET' || request.method === 'HEAD') {
          const fresh = noneMatchHits(request.headers['if-none-match'], answer.etag);
          Object.defineProperty(request, 'fresh', { value: fresh, configurable: true });
        }
        return answer.body as unknown;
      }),
    );
  }
}
