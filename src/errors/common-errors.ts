import { TEAM_ID_SHAPE } from '../common/id-shapes';
import { DomainError } from './domain-error';

export const RETRY_AFTER_SECONDS = '5';

/** Errors every module may raise. Module-specific ones live beside their module (note-errors.ts, ...). */
export const CommonErrors = {
  validation: (message: string) => new DomainError('VALIDATION_FAILED', message),
  unknownField: (path: string) => new DomainError('UNKNOWN_FIELD', `Field ${path} is not allowed in this request`),
  malformedJson: (detail: string) => new DomainError('MALFORMED_JSON', `The request body is not valid JSON: ${detail}`),
  notAnObject: () => new DomainError('MALFORMED_JSON', 'The request body must be a JSON object'),
  malformedBody: () =>
    new DomainError(
      'MALFORMED_JSON',
      'The request body could not be read: its Content-Encoding does not match its bytes',
    ),
  invalidCursor: () =>
    new DomainError('INVALID_CURSOR', 'cursor was not made by this service for this list with these filters'),
  unknownQueryParameter: (name: string) =>
    new DomainError('UNKNOWN_QUERY_PARAMETER', `Query parameter ${name} is not allowed in this request`),
  invalidPathParameter: (message: string) => new DomainError('INVALID_PATH_PARAMETER', message),
  projectNotFound: (id: string) =>
    new DomainError('PROJECT_NOT_FOUND', `project_id "${id}" is not a project of this workspace`),
  invalidTeamId: () => new DomainError('INVALID_TEAM_ID', `Path parameter team_id must be ${TEAM_ID_SHAPE.mustBe}`),
  missingToken: () =>
    new DomainError('UNAUTHENTICATED', 'A bearer token is required in the Authorization header', {
      'WWW-Authenticate': 'Bearer',
    }),
  invalidToken: () =>
    new DomainError('UNAUTHENTICATED', 'The bearer token is unknown, expired or revoked', {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    }),
  accessDenied: () => new DomainError('ACCESS_DENIED', 'You do not have access to this resource'),
  routeNotFound: (method: string, path: string) =>
    new DomainError('ROUTE_NOT_FOUND', `There is no operation ${method} ${path}`),
  payloadTooLarge: () => new DomainError('PAYLOAD_TOO_LARGE', 'The request body is larger than the 1 MiB limit'),
  unsupportedMediaType: (type: string) =>
    new DomainError('UNSUPPORTED_MEDIA_TYPE', `Content type ${type} is not supported; send application/json`),
  unsupportedCharset: (charset: string) =>
    new DomainError('UNSUPPORTED_MEDIA_TYPE', `Charset ${charset} is not supported; send UTF-8 JSON`),
  unsupportedEncoding: (encoding: string) =>
    new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Encoding ${encoding} is not supported; send the body as is, gzip, deflate or br`,
    ),
  databaseUnavailable: () =>
    new DomainError('DATABASE_UNAVAILABLE', 'The database is unavailable; retry shortly', {
      'Retry-After': RETRY_AFTER_SECONDS,
    }),
  notReady: (failing: string[]) =>
    new DomainError('NOT_READY', `The service is not ready: ${failing.join(', ')}`, {
      'Retry-After': RETRY_AFTER_SECONDS,
    }),
  rateLimited: (retryAfterSeconds: number) =>
    new DomainError('RATE_LIMITED', `Too many requests with this token; retry in ${retryAfterSeconds} s`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  requestTimeout: (limitMs: number) =>
    new DomainError(
      'REQUEST_TIMEOUT',
      `The request did not finish within ${limitMs / 1000} s; ` +
        'it may still take effect, so read the resource before retrying',
      {
        'Retry-After': RETRY_AFTER_SECONDS,
      },
    ),
  malformedRequest: () => new DomainError('MALFORMED_REQUEST', 'The HTTP request is malformed'),
  expectationFailed: (expect: string) =>
    new DomainError('EXPECTATION_FAILED', `Expect: ${expect} is not supported; only 100-continue is`),
  headersTooLarge: () => new DomainError('HEADERS_TOO_LARGE', 'The request line and headers are larger than 16 KiB'),
  internal: () =>
    new DomainError('INTERNAL_ERROR', 'An unexpected error occurred; quote the error id when reporting it'),
};
