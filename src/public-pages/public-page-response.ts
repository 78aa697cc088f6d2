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

/** The headers of every page's answer that do not depend on the page. */
const PAGE_HEADERS = Object.entries({
  ...PUBLIC_PAGE_HEADERS,
  'Content-Security-Policy': PUBLIC_PAGE_CSP,
  'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL,
});

/**
 * Sends a page's answer with its caching, robots and security headers, on Node's response: the body is
 * bytes whose type and validator are known, which is all Express's send() would work out per request
 * (a HEAD gets the headers, and no body from Node).
 */
export function sendPublicPage(response: Response, answer: PublicPageRepresentation): void {
  response.statusCode = answer.status;
  for (const [name, value] of PAGE_HEADERS) response.setHeader(name, value);
  response.setHeader('ETag', answer.etag);
  if (answer.robots.length) response.setHeader('X-Robots-Tag', answer.robots.join(', '));
  if (answer.status === 304) {
    response.end();
    return;
  }
  response.setHeader('Content-Type', answer.contentType);
  response.setHeader('Content-Length', answer.body.length);
  response.end(answer.body);
}
