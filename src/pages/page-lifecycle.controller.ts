import { Body, Controller, Delete, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import {
  ApiErrors,
  BODY_ERRORS,
  IDEMPOTENCY_ERRORS,
  RESOURCE_ERRORS,
  SAFE_WRITE_ERRORS,
} from '../common/openapi/api-errors.decorator';
import { ApiCreated, ApiIdempotent, ApiSafeWrite } from '../common/openapi/api-versions.decorator';
import { Conditions, WriteConditions } from '../safe-writes/write-conditions';
import { Versioned } from '../safe-writes/versioned';
import { NotForGuests } from '../workspaces/role-permissions';
import { TeamIdParam } from '../workspaces/team-id.param';
import { CopyPageDto } from './dto/copy-page.dto';
import { CreatePageDto } from './dto/create-page.dto';
import { PageResponse } from './dto/page.response';
import { PageCopy } from './page-copy';
import { PageCreation } from './page-creation';
import { PageDeletion } from './page-deletion';
import { PageIdParam } from './page-id.param';

const WHO = 'Owners, admins and members; guests and viewers get 403.';
const PLACE_ERRORS = [
  'PROJECT_NOT_FOUND',
  'PARENT_PAGE_NOT_FOUND',
  'PARENT_PAGE_ARCHIVED',
  'PARENT_PROJECT_MISMATCH',
] as const;

/** Pages coming into being and going for good: create, copy, delete (decisions.md, "The content lifecycle"). */
@ApiTags('Pages')
@NotForGuests()
@Controller('v1/:team_id/pages')
export class PageLifecycleController {
  constructor(
    private readonly creation: PageCreation,
    private readonly copies: PageCopy,
    private readonly deletion: PageDeletion,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createPage',
    summary: 'Create a page in a project, at its root or under a parent',
    description:
      `${WHO} Defaults: title "", content "", schema 1, font sans, not public; at the project's root ` +
      '(`parent_page_id` absent or ""), last (`position` absent). The creator is its one member (admin). ' +
      'Answers with Location and ETag; a retry with the same Idempotency-Key gets the first page.',
  })
  @ApiCreated(PageResponse, '/v1/{team_id}/pages/{id}')
  @ApiIdempotent()
  @ApiErrors(...IDEMPOTENCY_ERRORS, ...BODY_ERRORS, ...RESOURCE_ERRORS, ...PLACE_ERRORS)
  async create(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @Body() body: CreatePageDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<PageResponse>> {
    return (await this.creation.create(caller, teamId, body, conditions)).map((page) => ({ page }));
  }

  @Post(':page_id/copy')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'copyPage',
    summary: 'Copy a page (with `recursive`, its active subpages too)',
    description:
      `${WHO} The copy takes the title (unless \`title\`), content, schema, font, icon, cover image and display ` +
      'options; it gets new ids and alias ids, is not public, has no comments, bookmarks or watchers, and lists ' +
      'the caller as its one member. It goes right after the original unless `parent_page_id`, `project_id` or ' +
      '`position` say otherwise (elsewhere: last). `recursive` copies at most 1,000 pages in all. ' +
      "If-Match is compared with the original's ETag. An archived page cannot be copied.",
  })
  @ApiBody({ type: CopyPageDto, required: false })
  @ApiCreated(PageResponse, '/v1/{team_id}/pages/{id}')
  @ApiSafeWrite()
  @ApiErrors(
    ...BODY_ERRORS,
    ...RESOURCE_ERRORS,
    'PAGE_NOT_FOUND',
    ...SAFE_WRITE_ERRORS,
    ...PLACE_ERRORS,
    'PAGE_ARCHIVED',
    'PAGE_COPY_TOO_LARGE',
  )
  async copy(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @PageIdParam() pageId: string,
    @Body() body: CopyPageDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<PageResponse>> {
    return (await this.copies.copy(caller, teamId, pageId, body ?? {}, conditions)).map((page) => ({ page }));
  }

  @Delete(':page_id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deletePage',
    summary: 'Delete a page and its whole subtree, active and archived, for good',
    description:
      `${WHO} The remaining siblings close the gap. A deleted page is 404 afterwards; a repeat with the same ` +
      'Idempotency-Key gets the kept 204. Ids are never reused.',
  })
  @ApiNoContentResponse({ description: 'The page and its subtree are deleted' })
  @ApiSafeWrite()
  @ApiErrors(...RESOURCE_ERRORS, 'PAGE_NOT_FOUND', ...SAFE_WRITE_ERRORS)
  async delete(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @PageIdParam() pageId: string,
    @Conditions() conditions: WriteConditions,
  ): Promise<void> {
    await this.deletion.delete(caller, teamId, pageId, conditions);
  }
}
