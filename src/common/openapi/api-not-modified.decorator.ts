import { ApiNotModifiedResponse } from '@nestjs/swagger';

/**
 * Documents the conditional GET Express answers for us: every 200 carries a weak ETag of its body, and a
 * GET whose If-None-Match names it (or is `*`) gets 304 with no body. Errors are never turned into 304.
 */
export const ApiNotModified = () =>
  ApiNotModifiedResponse({
    description: 'If-None-Match names the ETag of the current body (sent with every 200), or is `*`: no body',
  });
