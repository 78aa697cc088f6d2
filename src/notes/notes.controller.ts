import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ApiErrors } from '../common/openapi/api-errors.decorator';
import { NoteTemplatePath } from './dto/note-template-path.dto';
import { NoteTemplateResponse } from './dto/note-template.response';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NotesService } from './notes.service';

@ApiTags('Notes')
@Controller('v1/:team_id/notes/templates')
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Get(':template_id')
  @ApiOperation({ operationId: 'getNoteTemplate', summary: 'Get a note template (its owner, or any member when shared or built-in)' })
  @ApiOkResponse({ type: NoteTemplateResponse })
  @ApiErrors('INVALID_TEAM_ID', 'INVALID_PATH_PARAMETER', 'UNAUTHENTICATED', 'ACCESS_DENIED', 'NOTE_TEMPLATE_NOT_FOUND')
  async get(@CurrentCaller() caller: Caller, @Param() path: NoteTemplatePath): Promise<NoteTemplateResponse> {
    return { note_template: await this.notes.get(caller, path.team_id, path.template_id) };
  }

  @Patch(':template_id')
  @ApiOperation({
    operationId: 'updateNoteTemplate',
    summary: 'Update a note template the caller owns',
    description: 'Omitted fields stay unchanged. Built-in templates and other people\'s templates are read-only (403).',
  })
  @ApiOkResponse({ type: NoteTemplateResponse })
  @ApiErrors(
    'VALIDATION_FAILED', 'UNKNOWN_FIELD', 'INVALID_TEAM_ID', 'INVALID_PATH_PARAMETER', 'UNAUTHENTICATED', 'ACCESS_DENIED',
    'NOTE_TEMPLATE_NOT_FOUND',
  )
  async update(
    @CurrentCaller() caller: Caller,
    @Param() path: NoteTemplatePath,
    @Body() patch: UpdateNoteTemplateDto,
  ): Promise<NoteTemplateResponse> {
    return { note_template: await this.notes.update(caller, path.team_id, path.template_id, patch) };
  }
}
