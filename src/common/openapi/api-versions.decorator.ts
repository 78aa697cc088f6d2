import { applyDecorators, Type } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiNotModifiedResponse, HeadersObject } from '@nestjs/swagger';

/** RFC 9110's If-None-Match and If-Match: `*` or a list of entity tags. Node refuses headers past 16 KiB (431). */
const CONDITION_SYNTAX = '^(\\*|(W/)?"[^"]*"(\\s*,\\s*(W/)?"[^"]*")*)$';

/** Added by buildOpenApiDocument to every 2xx of an operation that takes If-None-Match or If-Match. */
export const ETAG_HEADER: HeadersObject[string] = {
  required: true,
  description:
    'Strong entity tag of the version of the resource as stored: the same for every reader and every read, ' +
    'kept by a write that changes nothing, changed by every real change',
  schema: { type: 'string', example: '"7"' },
};

/** Added by buildOpenApiDocument to every 2xx of an operation that takes Idempotency-Key. */
export const REPLAYED_HEADER: HeadersObject[string] = {
  required: false,
  description:
    'Present (`true`) when this is the answer kept for an earlier request with the same Idempotency-Key: ' +
    'nothing ran again',
  schema: { type: 'string', enum: ['true'] },
};

/**
 * Documents the conditional GET: a GET whose If-None-Match names the current ETag (weakly) or is `*`
 * gets 304 with no body, whatever its Cache-Control says. Errors are never turned into 304.
 */
export const ApiNotModified = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'ETags the client holds, or `*`: if one names the current version (weak comparison: `W/` is ignored), ' +
        'the answer is 304 with no body, even with `Cache-Control: no-cache`. A value not of this form matches nothing',
      schema: { type: 'string', pattern: CONDITION_SYNTAX, maxLength: 16384 },
    }),
    ApiNotModifiedResponse({ description: 'If-None-Match names the current ETag, or is `*`: no body' }),
  );

/** Documents Idempotency-Key on a PATCH, PUT or POST (decisions.md, "Idempotency keys"). */
export const ApiIdempotent = () =>
  ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Makes retrying safe. The first successful answer (status, body, ETag) under a key is kept for 24 hours with ' +
      "the request's method, path and body, written with the change itself: a repeat gets that answer with " +
      '`Idempotent-Replayed: true` and changes nothing again, even if the first answer was lost. The same key ' +
      'with another request is 422; while the first still runs, 409 with Retry-After. A failed request keeps ' +
      'nothing. Keys belong to one user in one workspace',
    schema: { type: 'string', pattern: '^[\\x20-\\x7E]{1,255}$', minLength: 1, maxLength: 255 },
  });

/** Documents If-Match and Idempotency-Key on a write of a versioned resource (decisions.md, "Conditional writes"). */
export const ApiSafeWrite = () =>
  applyDecorators(
    ApiIdempotent(),
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Write only if the resource is still at one of these ETags (strong comparison: a `W/` tag never matches; ' +
        '`*`: any existing resource). Otherwise 412 PRECONDITION_FAILED and nothing changes. Compared under the ' +
        "write's lock: of concurrent writes sent with the same ETag, one succeeds. Checked after 404 and 403, " +
        "before the operation's own rules. A value not of this form matches nothing",
      schema: { type: 'string', pattern: CONDITION_SYNTAX, maxLength: 16384 },
    }),
  );

/**
 * Documents a creation's 201: the new resource (`type`), its ETag and its Location, `where` said in
 * words (`/v1/{team_id}/pages/{id}`).
 */
export const ApiCreated = (type: Type, where: string) =>
  ApiCreatedResponse({
    type,
    headers: {
      Location: {
        required: true,
        description: `The new resource: ${where}`,
        schema: { type: 'string', maxLength: 200 },
      },
      ETag: ETAG_HEADER,
    },
  });
