import { All, Controller, Get, Headers, Param, Req, Res, UseFilters } from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiHeader,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/public.decorator';
import { PublicRateLimit } from '../auth/rate-limits';
import { ApiErrors } from '../common/openapi/api-errors.decorator';
import { ApiNotModified } from '../common/openapi/api-versions.decorator';
import { PublicPageResponse } from './dto/public-page.response';
import { PublicPageErrorFilter } from './public-page-error.filter';
import { PublicPageErrors } from './public-page-errors';
import { formOf, sendPublicPage } from './public-page-response';
import { PublicPagesService } from './public-pages.service';

/** The shared pages, for anyone with their URL: no token, limited per client address. */
@ApiTags('Public pages')
@Public()
@PublicRateLimit()
@UseFilters(PublicPageErrorFilter)
@Controller('p')
export class PublicPagesController {
  constructor(private readonly pages: PublicPagesService) {}

  @Get(':alias_id')
  @ApiOperation({
    operationId: 'getPublicPage',
    summary: 'A shared page, as an HTML document (or JSON with Accept: application/json); HEAD too',
    description:
      'No token. The page must be shared (`is_public`), active and not deleted; every other case, and a malformed ' +
      'alias, is the same 404 (an HTML page for a browser, the error body for JSON). The HTML has no script and a ' +
      'Content-Security-Policy that allows none; `X-Robots-Tag` and `<meta name="robots">` carry ' +
      '`public_settings.robots` (absent when it is empty). `Cache-Control: public, max-age=60`, ' +
      '`Referrer-Policy: no-referrer`, `Vary: Accept`. A query string is ignored (links get tracking parameters). ' +
      'Requests are limited per client address (PUBLIC_RATE_LIMIT_PER_MINUTE). Other methods: 405 with `Allow`. ' +
      'Errors (404, 429, 503) come as an HTML page to a browser and as the error body to a JSON client.',
    security: [],
  })
  @ApiExtraModels(PublicPageResponse)
  @ApiProduces('text/html', 'application/json')
  @ApiParam({
    name: 'alias_id',
    description: "The page's alias_id, as in public_settings.url; any other value is the same 404",
    schema: { type: 'string', format: 'uuid', maxLength: 36 },
  })
  @ApiHeader({
    name: 'Accept',
    required: false,
    description: '`application/json` for the JSON form; anything else (or none) gets HTML',
    schema: { type: 'string', maxLength: 16384, pattern: '^[\\x20-\\x7e]*$' },
  })
  @ApiOkResponse({
    description: 'The page: `text/html` by default, `application/json` when asked for',
    content: {
      'text/html': { schema: { type: 'string' } },
      'application/json': { schema: { $ref: '#/components/schemas/PublicPageResponse' } },
    },
  })
  @ApiNotModified()
  @ApiErrors('PUBLIC_PAGE_NOT_FOUND', 'RATE_LIMITED')
  async show(
    @Param('alias_id') aliasId: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    sendPublicPage(response, await this.pages.show(aliasId, formOf(request), ifNoneMatch));
  }

  @All(':alias_id')
  @ApiExcludeEndpoint()
  refuse(@Req() request: Request): never {
    throw PublicPageErrors.methodNotAllowed(request.method);
  }
}
