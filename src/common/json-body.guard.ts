import { CanActivate, ExecutionContext, Injectable, RawBodyRequest, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CommonErrors } from '../errors/common-errors';
import { RouteFlag } from './route-flag';

const ACCEPTS_ANY_BODY = 'acceptsAnyBody';
const ANY_BODY = new RouteFlag(ACCEPTS_ANY_BODY);

/** For routes whose body, if any, is ignored (real clients send anything with them). */
export const AcceptsAnyBody = () => SetMetadata(ACCEPTS_ANY_BODY, true);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * Turns the raw body (read and size-checked by express.raw in configureApp) into JSON. It runs as
 * the last global guard, so a request is refused for its token, team_id or role (401/400/403) before
 * anything about its body: then a non-JSON content type is a 415 and malformed JSON a 400.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RawBodyRequest<Request>>();
    const raw: unknown = request.body;
    request.body = undefined;
    if (!Buffer.isBuffer(raw) || raw.length === 0) return true;
    // An idempotency key's fingerprint covers the body's bytes. Only then: a property added to the
    // request gives it another hidden class, which every later access pays for.
    if (request.headers['idempotency-key'] !== undefined) request.rawBody = raw;
    if (ANY_BODY.of(this.reflector, context)) return true;
    requireJson(request.headers['content-type']);
    request.body = parseJson(raw);
    return true;
  }
}

function requireJson(contentType: string | undefined): void {
  const [type, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim());
  if (!JSON_TYPE.test(type)) throw CommonErrors.unsupportedMediaType(type || '(none)');
  const charset = parameters
    .find((p) => /^charset=/i.test(p))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw CommonErrors.unsupportedCharset(charset);
}

/** Strict: Buffer#toString would turn bytes that are not UTF-8 into U+FFFD and store that instead of refusing. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseJson(raw: Buffer): unknown {
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw CommonErrors.malformedJson('its bytes are not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw CommonErrors.malformedJson(describeSyntaxError((error as Error).message));
  }
}

/**
 * JSON.parse's complaint without any part of the body: V8 quotes the offending token and an excerpt
 * around it ("Unexpected token 'x', ..."secret"... is not valid JSON"), which must not be echoed.
 */
function describeSyntaxError(message: string): string {
  if (/^Unexpected token/.test(message) || /is not valid JSON$/.test(message)) return 'Unexpected token';
  return message.replace(/\s+in JSON.*$/, '');
}
