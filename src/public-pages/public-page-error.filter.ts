import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AllExceptionsFilter } from '../errors/all-exceptions.filter';
import { ErrorBody, sendError } from '../errors/error-response';
import { errorDocument, PUBLIC_PAGE_CSP } from './public-page-document';
import { PUBLIC_PAGE_HEADERS } from './public-page-representation';
import { formOf } from './public-page-response';

/**
 * A browser reading /p gets its errors (404, 429, 503) as an HTML page showing the contract's error
 * (same id, same log line). A client asking for JSON, and every method but GET and HEAD, get the error
 * body itself from the one filter.
 */
@Catch()
export class PublicPageErrorFilter implements ExceptionFilter {
  private readonly json = new AllExceptionsFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const [request, response] = [http.getRequest<Request>(), http.getResponse<Response>()];
    response.set({ ...PUBLIC_PAGE_HEADERS, 'Content-Security-Policy': PUBLIC_PAGE_CSP, 'Cache-Control': 'no-store' });
    const browser = (request.method === 'GET' || request.method === 'HEAD') && formOf(request) === 'html';
    if (browser) sendError(exception, request, response, sendErrorPage);
    else this.json.catch(exception, host);
  }
}

function sendErrorPage(response: Response, { error }: ErrorBody): void {
  const title = error.code === 404 ? 'Page not found' : 'This page cannot be shown now';
  response
    .set('X-Robots-Tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(errorDocument(title, error.message, error.id, error.date));
}
