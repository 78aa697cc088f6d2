import type { Request, Response } from 'express';
import { PUBLIC_PAGE_CSP } from './public-page-document';
import {
  PUBLIC_PAGE_CACHE_CONTROL,
  PUBLIC_PAGE_HEADERS,
  PublicPageForm,
  PublicPageRepresentation,
} from './public-page-representation';

/** JSON only when the client asks for it before HTML; `*∕*`, a browser's Accept or none gets HTML. */
export function formOf(request: Request): PublicPageForm {
  return request.accepts(['text/html', 'application/json']) === 'application/json' ? 'json' : 'html';
}

/** Sends a page's answer with its caching, robots and security headers (a HEAD gets no body from Node). */
export function sendPublicPage(response: Response, answer: PublicPageRepresentation): void {
  response.status(answer.status).set({
    ...PUBLIC_PAGE_HEADERS,
    'Content-Security-Policy': PUBLIC_PAGE_CSP,
    'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL,
    ETag: answer.etag,
    ...(answer.robots.length ? { 'X-Robots-Tag': answer.robots.join(', ') } : {}),
  });
  if (answer.status === 304) {
    response.end();
    return;
  }
  response.type(answer.contentType).send(answer.body);
}
