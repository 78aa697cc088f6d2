import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ApiErrors, BODY_ERRORS, RESOURCE_ERRORS, SAFE_WRITE_ERRORS } from '../common/openapi/api-errors.decorator';
import { ApiNotModified, ApiSafeWrite } from '../common/openapi/api-versions.decorator';
import { Conditions, WriteConditions } from '../safe-writes/write-conditions';
import { Versioned } from '../safe-writes/versioned';
import { TeamIdParam } from '../workspaces/team-id.param';
import { NoteTemplateResponse } from './dto/note-template.response';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NotesService } from './notes.service';
import { TemplateIdParam } from './template-id.param';

@ApiTags('Notes')
@Controller('v1/:team_id/notes/templates')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

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
