import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CommonErrors } from '../errors/common-errors';

const ACCEPTS_ANY_BODY = 'acceptsAnyBody';

/** For routes whose body, if any, is ignored (real clients send anything with them). */
export const AcceptsAnyBody = () => SetMetadata(ACCEPTS_ANY_BODY, true);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** A request that carries a body must say it is JSON (415 otherwise). Runs before authentication. */
@Injectable()
export class JsonContentTypeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (!hasBody(request)) return true;
    if (this.reflector.getAllAndOverride<boolean>(ACCEPTS_ANY_BODY, [context.getHandler(), context.getClass()])) return true;
    const type = request.headers['content-type'];
    if (!type || !JSON_TYPE.test(type)) throw CommonErrors.unsupportedMediaType(type ?? '(none)');
    return true;
  }
}

function hasBody(request: Request): boolean {
  const length = Number(request.headers['content-length'] ?? 0);
  return length > 0 || request.headers['transfer-encoding'] !== undefined;
}
