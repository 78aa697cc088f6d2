import { DomainError } from '../errors/domain-error';

/** How soon a request that found its key in use may try again. */
export const KEY_IN_USE_RETRY_AFTER_SECONDS = '1';

export const SafeWriteErrors = {
  preconditionFailed: (etag: string) =>
    new DomainError(
      'PRECONDITION_FAILED',
      `If-Match does not name the current ETag ${etag}: the resource changed since it was read; nothing was changed`,
    ),
  invalidIdempotencyKey: () =>
    new DomainError('IDEMPOTENCY_KEY_INVALID', 'Header Idempotency-Key must be 1 to 255 printable ASCII characters'),
  idempotencyKeyReused: () =>
    new DomainError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was used with another method, path or body; use a new key for a new request',
    ),
  idempotencyKeyInUse: () =>
    new DomainError(
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still running; retry after a moment to get its answer',
      { 'Retry-After': KEY_IN_USE_RETRY_AFTER_SECONDS },
    ),
};
