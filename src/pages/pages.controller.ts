import { Body, Controller, Get, HttpCode, Patch, Put, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { AcceptsAnyBody } from '../common/json-body.guard';
import { ApiErrors, BODY_ERRORS, RESOURCE_ERRORS, SAFE_WRITE_ERRORS } from '../common/openapi/api-errors.decorator';
import { ApiNotModified, ApiSafeWrite } from '../common/openapi/api-versions.decorator';
import { Conditions, WriteConditions } from '../safe-writes/write-conditions';
import { Versioned } from '../safe-writes/versioned';
import { TeamIdParam } from '../workspaces/team-id.param';
import { PageResponse } from './dto/page.response';
import { UpdatePageDto } from './dto/update-page.dto';
import { ListPagesQuery } from './dto/list-pages.query';
import { PageListResponse } from './dto/page-list.response';
import { PageList } from './page-list';
import { PageIdParam } from './page-id.param';
import { PagesService } from './pages.service';

const MOVE_ERRORS = [
  'PARENT_PAGE_NOT_FOUND',
  'PROJECT_NOT_FOUND',
  'PAGE_PARENT_CYCLE',
  'PARENT_PAGE_ARCHIVED',
  'PAGE_ARCHIVED',
  'PARENT_PROJECT_MISMATCH',
] as const;

@ApiTags('Pages')
@Controller('v1/:team_id/pages')
export class PagesController {
  constructor(
    private readonly pages: PagesService,
    private readonly pageList: PageList,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listPages',
    summary: 'List pages: active ones in tree order, archived ones newest first, or recently changed ones',
    description:
      'Active pages come depth-first, siblings by position, projects by id; `archived=true` lists archived pages ' +
      'by archive time and `updated_recently=true` pages changed in the last 7 days by change time, newest first. ' +
      'Guests see only pages that list them as a member. Follow `cursor` with the same filters until it is null: ' +
      'see docs/page-list.md for what a walk sees while others change the tree.',
  })
  @ApiOkResponse({ type: PageListResponse })
  @ApiErrors(
    ...RESOURCE_ERRORS,
    'VALIDATION_FAILED',
    'UNKNOWN_QUERY_PARAMETER',
    'INVALID_CURSOR',
    'PROJECT_NOT_FOUND',
    'PARENT_PAGE_NOT_FOUND',
  )
  async list(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @Query() query: ListPagesQuery,
  ): Promise<PageListResponse> {
    return this.pageList.list(caller, teamId, query);
  }

  @Get(':page_id')
  @ApiOperation({
    operationId: 'getPage',
    summary: 'Get a page, with where it sits (parent_page_id, position)',
    description:
      'Guests see only pages that list them as a member. An archived page is returned with its `archived` object ' +
      'and without `position`. Send the ETag of a body you hold in If-None-Match to get 304 while it is unchanged.',
  })
  @ApiOkResponse({ type: PageResponse })
  @ApiNotModified()
  @ApiErrors(...RESOURCE_ERRORS, 'PAGE_NOT_FOUND')
  async get(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @PageIdParam() pageId: string,
  ): Promise<Versioned<PageResponse>> {
    return (await this.pages.get(caller, teamId, pageId)).map((page) => ({ page }));
  }

  @Patch(':page_id')
  @ApiOperation({
    operationId: 'updatePage',
    summary: 'Update a page: title, display options, sharing, its place in the tree, its archive state',
    description:
      'Only the fields sent change; one request is one change, all of it or none. ' +
      '`position` is the 0-based index among the active siblings (past the end: last). ' +
      'A move carries the subtree; without `position` a moved page goes last. ' +
      '`archived: true` archives the page and its subtree; ' +
      '`archived: false` brings them back under the former parent ' +
      'if it is still active, else at the project root, unless parent_page_id/project_id say where.',
  })
  @ApiOkResponse({ type: PageResponse })
  @ApiSafeWrite()
  @ApiErrors(...BODY_ERRORS, ...RESOURCE_ERRORS, 'PAGE_NOT_FOUND', ...SAFE_WRITE_ERRORS, ...MOVE_ERRORS)
  async update(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @PageIdParam() pageId: string,
    @Body() patch: UpdatePageDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<PageResponse>> {
    return (await this.pages.update(caller, teamId, pageId, patch, conditions)).map((page) => ({ page }));
  }

  @Put(':page_id/archive')
  @HttpCode(200)
  @AcceptsAnyBody()
  @ApiOperation({
    operationId: 'archivePage',
    summary: 'Archive a page and its subtree (as PATCH with archived: true); any body is ignored',
    description:
      'The same change as `PATCH` with `{"archived": true}`: the page and its subtree leave the tree, and the answer ' +
      'carries `archived` with the parent at the time. Archiving an archived page changes nothing. Real clients ' +
      'call it ' +
      'with no body or with any body of any content type; it is read as nothing.',
  })
  @ApiConsumes('*/*')
  @ApiBody({
    required: false,
    description: 'Ignored, whatever it is: send none',
    schema: { description: 'Any content; not read' },
  })
  @ApiOkResponse({ type: PageResponse })
  @ApiSafeWrite()
  @ApiErrors(...RESOURCE_ERRORS, 'PAGE_NOT_FOUND', ...SAFE_WRITE_ERRORS)
  async archive(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @PageIdParam() pageId: string,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<PageResponse>> {
    return (await this.pages.update(caller, teamId, pageId, { archived: true }, conditions)).map((page) => ({ page }));
  }
}
