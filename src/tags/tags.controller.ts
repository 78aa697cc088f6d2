import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import {
  ApiErrors,
  BODY_ERRORS,
  IDEMPOTENCY_ERRORS,
  RESOURCE_ERRORS,
  SAFE_WRITE_ERRORS,
} from '../common/openapi/api-errors.decorator';
import { ApiCreated, ApiIdempotent, ApiNotModified, ApiSafeWrite } from '../common/openapi/api-versions.decorator';
import { Conditions, WriteConditions } from '../safe-writes/write-conditions';
import { Versioned } from '../safe-writes/versioned';
import { NotForGuests } from '../workspaces/role-permissions';
import { TeamIdParam } from '../workspaces/team-id.param';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQuery } from './dto/list-tags.query';
import { TagListResponse, TagResponse } from './dto/tag.response';
import { UpdateTagDto } from './dto/update-tag.dto';
import { TagIdParam } from './tag-id.param';
import { TagsService } from './tags.service';

const WRITERS = 'Owners, admins and members; guests and viewers get 403.';

@ApiTags('Tags')
@Controller('v1/:team_id/tags')
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listTags',
    summary: 'List tags: workspace-wide, usable on one project, or all',
    description:
      "Without project_id, the workspace-wide tags; with it, those and the project's own; `all=true`, every tag " +
      'of the workspace. By name ignoring case, then id; `cursor` fetches what follows (keyset: the last answer ' +
      'costs what the first does). Every member lists tags, guests too. The ETag names this answer as it is ' +
      '(a digest of it): send it in If-None-Match to get 304 while nothing in it changed.',
  })
  @ApiOkResponse({ type: TagListResponse })
  @ApiNotModified()
  @ApiErrors(...RESOURCE_ERRORS, 'VALIDATION_FAILED', 'UNKNOWN_QUERY_PARAMETER', 'INVALID_CURSOR', 'PROJECT_NOT_FOUND')
  list(@TeamIdParam() teamId: string, @Query() query: ListTagsQuery): Promise<Versioned<TagListResponse>> {
    return this.tags.list(teamId, query);
  }

  @Post()
  @HttpCode(201)
  @NotForGuests()
  @ApiOperation({
    operationId: 'createTag',
    summary: 'Create a tag, workspace-wide or for one project',
    description:
      `${WRITERS} Answers with Location and ETag. The name is unique ignoring case in its scope, ` +
      'even under concurrent creates (the database decides): a taken name is 409. ' +
      'A retry with the same Idempotency-Key gets the first tag.',
  })
  @ApiCreated(TagResponse, '/v1/{team_id}/tags/{id}')
  @ApiIdempotent()
  @ApiErrors(...IDEMPOTENCY_ERRORS, ...BODY_ERRORS, ...RESOURCE_ERRORS, 'PROJECT_NOT_FOUND', 'TAG_NAME_TAKEN')
  async create(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @Body() body: CreateTagDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<TagResponse>> {
    return (await this.tags.create(caller, teamId, body, conditions)).map((tag) => ({ tag }));
  }

  @Patch(':tag_id')
  @NotForGuests()
  @ApiOperation({
    operationId: 'updateTag',
    summary: 'Rename a tag or change its colour',
    description:
      `${WRITERS} The slug follows the name. project_id cannot change (400 unless it is the tag's own). ` +
      'A change that changes nothing keeps the ETag and emits no event.',
  })
  @ApiOkResponse({ type: TagResponse })
  @ApiSafeWrite()
  @ApiErrors(
    ...SAFE_WRITE_ERRORS,
    ...BODY_ERRORS,
    ...RESOURCE_ERRORS,
    'TAG_NOT_FOUND',
    'TAG_PROJECT_FIXED',
    'TAG_NAME_TAKEN',
  )
  async update(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @TagIdParam() tagId: string,
    @Body() patch: UpdateTagDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<TagResponse>> {
    return (await this.tags.update(caller, teamId, tagId, patch, conditions)).map((tag) => ({ tag }));
  }

  @Delete(':tag_id')
  @HttpCode(204)
  @NotForGuests()
  @ApiOperation({
    operationId: 'deleteTag',
    summary: 'Delete a tag: it leaves every card it was on',
    description:
      `${WRITERS} In one transaction the tag leaves every card (each card's version moves) and is deleted; ` +
      'its id is never handed out again. A deleted tag is a 404 afterwards.',
  })
  @ApiNoContentResponse({ description: 'The tag is deleted' })
  @ApiSafeWrite()
  @ApiErrors(...SAFE_WRITE_ERRORS, ...RESOURCE_ERRORS, 'TAG_NOT_FOUND')
  async delete(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @TagIdParam() tagId: string,
    @Conditions() conditions: WriteConditions,
  ): Promise<void> {
    await this.tags.delete(caller, teamId, tagId, conditions);
  }
}
