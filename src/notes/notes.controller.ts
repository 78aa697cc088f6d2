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
import { TeamIdParam } from '../workspaces/team-id.param';
import { CreateNoteTemplateDto } from './dto/create-note-template.dto';
import { ListNoteTemplatesQuery } from './dto/list-note-templates.query';
import { NoteTemplateListResponse } from './dto/note-template-list.response';
import { NoteTemplateResponse } from './dto/note-template.response';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NotesService } from './notes.service';
import { TemplateIdParam } from './template-id.param';

@ApiTags('Notes')
@Controller('v1/:team_id/notes/templates')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listNoteTemplates',
    summary: 'List the note templates the caller may read',
    description:
      "The caller's own, the shared and the built-in templates: built-in first, then by title ignoring case, then " +
      'id. Follow `cursor` for what follows; a cursor this list did not make is a 400.',
  })
  @ApiOkResponse({ type: NoteTemplateListResponse })
  @ApiErrors(...RESOURCE_ERRORS, 'VALIDATION_FAILED', 'UNKNOWN_QUERY_PARAMETER', 'INVALID_CURSOR')
  list(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @Query() query: ListNoteTemplatesQuery,
  ): Promise<NoteTemplateListResponse> {
    return this.notes.list(caller, teamId, query);
  }

  @Post()
  @ApiOperation({
    operationId: 'createNoteTemplate',
    summary: 'Create a note template the caller owns',
    description:
      'Every role but viewer creates. `title` is required; the other fields follow the update and default to ' +
      'empty or false. The service picks the id. A retry with the same Idempotency-Key answers the first template.',
  })
  @ApiCreated(NoteTemplateResponse, '/v1/{team_id}/notes/templates/{id}')
  @ApiIdempotent()
  @ApiErrors(...BODY_ERRORS, ...RESOURCE_ERRORS, ...IDEMPOTENCY_ERRORS)
  async create(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @Body() body: CreateNoteTemplateDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<NoteTemplateResponse>> {
    return (await this.notes.create(caller, teamId, body, conditions)).map((note_template) => ({ note_template }));
  }

  @Delete(':template_id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteNoteTemplate',
    summary: 'Delete a note template the caller owns',
    description:
      "Built-in templates and other people's are 403, as for the update. Notes made with it are not changed. " +
      'A deleted template is 404 afterwards; a retry with the same Idempotency-Key gets the first 204.',
  })
  @ApiNoContentResponse({ description: 'The template is deleted' })
  @ApiSafeWrite()
  @ApiErrors(...RESOURCE_ERRORS, 'NOTE_TEMPLATE_NOT_FOUND', ...SAFE_WRITE_ERRORS)
  async delete(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @TemplateIdParam() templateId: string,
    @Conditions() conditions: WriteConditions,
  ): Promise<void> {
    await this.notes.delete(caller, teamId, templateId, conditions);
  }

  @Get(':template_id')
  @ApiOperation({
    operationId: 'getNoteTemplate',
    summary: 'Get a note template (its owner, or any member when shared or built-in)',
    description:
      "`is_favourited` is whether the caller favourited it. A template that is neither the caller's own, shared nor " +
      'built-in is 403. Send the ETag of a body you hold in If-None-Match to get 304 while it is unchanged.',
  })
  @ApiOkResponse({ type: NoteTemplateResponse })
  @ApiNotModified()
  @ApiErrors(...RESOURCE_ERRORS, 'NOTE_TEMPLATE_NOT_FOUND')
  async get(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @TemplateIdParam() templateId: string,
  ): Promise<Versioned<NoteTemplateResponse>> {
    return (await this.notes.get(caller, teamId, templateId)).map((note_template) => ({ note_template }));
  }

  @Patch(':template_id')
  @ApiOperation({
    operationId: 'updateNoteTemplate',
    summary: 'Update a note template the caller owns',
    description: "Omitted fields stay unchanged. Built-in templates and other people's templates are read-only (403).",
  })
  @ApiOkResponse({ type: NoteTemplateResponse })
  @ApiSafeWrite()
  @ApiErrors(...BODY_ERRORS, ...RESOURCE_ERRORS, 'NOTE_TEMPLATE_NOT_FOUND', ...SAFE_WRITE_ERRORS)
  async update(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @TemplateIdParam() templateId: string,
    @Body() patch: UpdateNoteTemplateDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<Versioned<NoteTemplateResponse>> {
    const written = await this.notes.update(caller, teamId, templateId, patch, conditions);
    return written.map((note_template) => ({ note_template }));
  }
}
