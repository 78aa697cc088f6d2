import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { giveBackKey } from '../safe-writes/write-conditions';
import { sendError } from './error-response';

/**
 * The one filter: every exception from any route becomes the contract's error body, sent after the
 * request's idempotency key is given back, so that a retry on receiving it runs afresh.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const [request, response] = [http.getRequest<Request>(), http.getResponse<Response>()];
    const givingBack = giveBackKey(request);
    if (givingBack) void givingBack.then(() => sendError(exception, request, response));
    else sendError(exception, request, response);
  }
}
