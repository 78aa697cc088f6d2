import { HttpException, HttpStatus } from '@nestjs/common';
import { CommonErrors } from './common-errors';
import { DomainError } from './domain-error';
import { isDatabaseUnavailable } from './database-unavailable';

interface RequestLine {
  method: string;
  path: string;
}

/**
 * Maps anything thrown while serving a request onto the catalogue. Returns the DomainError and
 * whether it was unexpected (so the caller logs the original with its stack).
 */
export function toDomainError(exception: unknown, request: RequestLine): { error: DomainError; unexpected: boolean } {
  if (exception instanceof DomainError) return { error: exception, unexpected: false };
  const bodyParser = fromBodyParser(exception);
  if (bodyParser) return { error: bodyParser, unexpected: false };
  if (exception instanceof HttpException) return fromHttpException(exception, request);
  if (isDatabaseUnavailable(exception)) return { error: CommonErrors.databaseUnavailable(), unexpected: false };
  return { error: CommonErrors.internal(), unexpected: true };
}

/**
 * Errors while reading a body: body-parser marks its own with a `type`; the decompressor's carry
 * only a 4xx `status` (a corrupt gzip body, say).
 */
function fromBodyParser(exception: unknown): DomainError | undefined {
  const { type, status, message } = (exception ?? {}) as { type?: string; status?: number; message?: string };
  switch (type) {
    case 'entity.too.large':
      return CommonErrors.payloadTooLarge();
    case 'encoding.unsupported':
      return CommonErrors.unsupportedEncoding(String(message ?? '').match(/"([^"]*)"/)?.[1] ?? 'of this request');
    case 'request.size.invalid':
    case 'request.aborted':
      return CommonErrors.validation('The request body ended before its declared length');
  }
  if (exception instanceof HttpException || typeof status !== 'number' || status < 400 || status >= 500)
    return undefined;
  return CommonErrors.malformedBody();
}

function fromHttpException(
  exception: HttpException,
  request: RequestLine,
): { error: DomainError; unexpected: boolean } {
  switch (exception.getStatus() as HttpStatus) {
    case HttpStatus.BAD_REQUEST:
      // Express cannot decode a path such as /v1/acme/cards/%ZZ.
      return { error: CommonErrors.invalidPathParameter('The path is not validly percent-encoded'), unexpected: false };
    case HttpStatus.NOT_FOUND:
      return { error: CommonErrors.routeNotFound(request.method, request.path), unexpected: false };
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return { error: CommonErrors.payloadTooLarge(), unexpected: false };
    case HttpStatus.SERVICE_UNAVAILABLE:
      return { error: CommonErrors.notReady(failingChecks(exception)), unexpected: false };
    case HttpStatus.UNAUTHORIZED:
      return { error: CommonErrors.missingToken(), unexpected: false };
    case HttpStatus.FORBIDDEN:
      return { error: CommonErrors.accessDenied(), unexpected: false };
    default:
      return { error: CommonErrors.internal(), unexpected: true };
  }
}

/** Terminus puts its failing indicators under `error` in the exception's response. */
function failingChecks(exception: HttpException): string[] {
  const body = exception.getResponse() as { error?: Record<string, { message?: string }> };
  const failing = Object.entries(body?.error ?? {}).map(([name, detail]) =>
    detail?.message ? `${name} (${detail.message})` : name,
  );
  return failing.length > 0 ? failing : ['a dependency is down'];
}
