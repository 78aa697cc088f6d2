import { applyDecorators } from '@nestjs/common';
import { ApiResponse, HeadersObject } from '@nestjs/swagger';
import { CATALOGUE, ErrorCode } from '../../errors/catalogue';
import { ErrorBodyDto } from '../../errors/error-body.dto';

/** Any route can fail these ways, whatever it does: every request goes through the body parser and the deadline. */
const ALWAYS: ErrorCode[] = [
  'MALFORMED_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'DATABASE_UNAVAILABLE',
  'REQUEST_TIMEOUT',
  'INTERNAL_ERROR',
];

/** What a route on one resource of a workspace can answer: a bad path, no valid token, no access. */
export const RESOURCE_ERRORS: ErrorCode[] = [
  'INVALID_TEAM_ID',
  'INVALID_PATH_PARAMETER',
  'UNAUTHENTICATED',
  'ACCESS_DENIED',
];

/** What a route that reads a JSON body can also answer: a field invalid or unknown. */
export const BODY_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'UNKNOWN_FIELD'];

/** What a write that takes Idempotency-Key (ApiIdempotent) can also answer. */
export const IDEMPOTENCY_ERRORS: ErrorCode[] = [
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
];

/** What a write that takes If-Match and Idempotency-Key (ApiSafeWrite) can also answer. */
export const SAFE_WRITE_ERRORS: ErrorCode[] = [...IDEMPOTENCY_ERRORS, 'PRECONDITION_FAILED'];

/** Routes that need a token are also rate limited per token. */
const WITH_A_TOKEN: ErrorCode[] = ['RATE_LIMITED'];

/** Headers that come with every error of a status (see errors/common-errors.ts). */
const HEADERS: Record<number, HeadersObject> = {
  401: {
    'WWW-Authenticate': {
      required: true,
      description: 'Always `Bearer`, with `error="invalid_token"` when a token was sent but is not valid',
      schema: { type: 'string', example: 'Bearer error="invalid_token"' },
    },
  },
  409: {
    'Retry-After': {
      required: true,
      description: "Seconds to wait before retrying to get the first request's answer",
      schema: { type: 'integer', minimum: 1 },
    },
  },
  429: {
    'Retry-After': {
      required: true,
      description: 'Seconds until the token may send again',
      schema: { type: 'integer', minimum: 1 },
    },
  },
  503: {
    'Retry-After': {
      required: true,
      description: 'Seconds to wait before retrying',
      schema: { type: 'integer', minimum: 0 },
    },
  },
};

/** What the error body of `code` looks like; the message is the catalogue's meaning, as a placeholder sentence. */
function example(code: ErrorCode) {
  const { status, sec, meaning } = CATALOGUE[code];
  return {
    summary: code,
    value: {
      error: { id: '3f1c2a9e-7b4d-4e0a-9c1b-2d5e8f6a7b90', code: status, sec, message: meaning, date: 1767225600000 },
    },
  };
}

/** Documents a route's error responses from the catalogue, grouped by status, each naming its sec codes. */
export function ApiErrors(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  const authenticated = codes.includes('UNAUTHENTICATED') ? WITH_A_TOKEN : [];
  for (const code of new Set([...codes, ...authenticated, ...ALWAYS])) {
    const status = CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ...[...byStatus].map(([status, group]) =>
      ApiResponse({
        status,
        type: ErrorBodyDto,
        headers: HEADERS[status],
        description: group.map((code) => `\`${CATALOGUE[code].sec}\` ${code}: ${CATALOGUE[code].meaning}`).join('; '),
        examples: Object.fromEntries(group.map((code) => [code, example(code)])),
      }),
    ),
  );
}
