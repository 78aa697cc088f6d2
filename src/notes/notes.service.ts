import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { Sql } from '../database/sql';
import { CommonErrors } from '../errors/common-errors';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NoteTemplateDto } from './dto/note-template.response';
import { NoteErrors } from './note-errors';
import { writeTemplateParams } from './note-template-changes';
import { READ_TEMPLATE, TemplateRow, toNoteTemplate, WRITE_TEMPLATE } from './note-template-queries';
import { toNoteTemplateView } from './note-template.view';

@Injectable()
export class NotesService {
  constructor(private readonly db: Sql) {}

  /** Owners see their templates; every member sees shared and built-in ones. */
  async get(caller: Caller, teamId: string, templateId: string): Promise<NoteTemplateDto> {
    const [row] = await this.db.query(READ_TEMPLATE, [teamId, templateId, caller.userId]);
    const readable = row && (row.owner_id === caller.userId || row.owner_id === null || row.is_shared);
    if (row && !readable) throw CommonErrors.accessDenied();
    return this.view(templateId, row);
  }

  /** Only the owner updates; only the fields that really change are written (WRITE_TEMPLATE). */
  async update(
    caller: Caller,
    teamId: string,
    templateId: string,
    patch: UpdateNoteTemplateDto,
  ): Promise<NoteTemplateDto> {
    const [row] = await this.db.query(WRITE_TEMPLATE, writeTemplateParams(caller, teamId, templateId, patch));
    if (row && row.owner_id !== caller.userId) throw CommonErrors.accessDenied();
    return this.view(templateId, row);
  }

  private view(templateId: string, row: TemplateRow | undefined): NoteTemplateDto {
    if (!row) throw NoteErrors.notFound(templateId);
    return toNoteTemplateView(toNoteTemplate(row), row.is_favourited);
  }
}
