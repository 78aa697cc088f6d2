import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiNotModifiedResponse, HeadersObject } from '@nestjs/swagger';

/** RFC 9110's If-None-Match: `*` or a list of entity tags. Node refuses request headers past 16 KiB (431). */
const IF_NONE_MATCH_SYNTAX = '^(\\*|(W/)?"[^"]*"(\\s*,\\s*(W/)?"[^"]*")*)$';

/** Express sends a weak ETag of the body with every 200 that has one (see openapi.ts, which adds it). */
export const ETAG_HEADER: HeadersObject[string] = {
  required: true,
  description: 'Weak entity tag of this body; send it back in If-None-Match to get 304 while it is unchanged',
  schema: { type: 'string', example: 'W/"1a2-Qm9uam91ciBsZXMgZ2Vucw"' },
};

/**
 * Documents the conditional GET Express answers for us: every 200 carries a weak ETag of its body, and a
 * GET whose If-None-Match names it (or is `*`) gets 304 with no body. Errors are never turned into 304.
 */
export const ApiNotModified = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        "ETags of bodies the client holds, or `*`: if one is the current body's ETag, " +
        'the answer is 304 with no body. ' +
        'A value not of this form matches nothing',
      schema: { type: 'string', pattern: IF_NONE_MATCH_SYNTAX, maxLength: 16384 },
    }),
    ApiNotModifiedResponse({
      description: 'If-None-Match names the ETag of the current body (sent with every 200), or is `*`: no body',
    }),
  );
