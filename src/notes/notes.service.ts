import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { Sql, SqlSession } from '../database/sql';
import { CommonErrors } from '../errors/common-errors';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NoteTemplateDto } from './dto/note-template.response';
import { NoteErrors } from './note-errors';
import { noteTemplateChanges } from './note-template-changes';
import { FOR_UPDATE, READ_TEMPLATE, TemplateRow, toNoteTemplate, updateTemplate } from './note-template-queries';
import { toNoteTemplateView } from './note-template.view';

@Injectable()
export class NotesService {
  constructor(private readonly db: Sql) {}

  /** Owners see their templates; every member sees shared and built-in ones. */
  async get(caller: Caller, teamId: string, templateId: string): Promise<NoteTemplateDto> {
    const { template, isFavourited } = await this.find(this.db, caller, teamId, templateId, false);
    const readable = template.ownerId === caller.userId || template.ownerId === null || template.isShared;
    if (!readable) throw CommonErrors.accessDenied();
    return toNoteTemplateView(template, isFavourited);
  }

  /**
   * Only the owner updates. The row is locked for the transaction and only the fields that really
   * change are written, so concurrent patches of different fields never undo each other.
   */
  async update(caller: Caller, teamId: string, templateId: string, patch: UpdateNoteTemplateDto): Promise<NoteTemplateDto> {
    return this.db.transaction(async (tx) => {
      const { template, isFavourited } = await this.find(tx, caller, teamId, templateId, true);
      if (template.ownerId !== caller.userId) throw CommonErrors.accessDenied();
      const changes = noteTemplateChanges(template, patch);
      if (Object.keys(changes).length > 0) {
        const { sql, params } = updateTemplate(teamId, templateId, changes, caller.actor);
        const [{ time_updated }] = await tx.query(sql, params);
        Object.assign(template, changes, { updatedBy: caller.actor, timeUpdated: time_updated });
      }
      return toNoteTemplateView(template, isFavourited);
    });
  }

  private async find(tx: SqlSession, caller: Caller, teamId: string, templateId: string, forUpdate: boolean) {
    const rows: TemplateRow[] = await tx.query(forUpdate ? READ_TEMPLATE + FOR_UPDATE : READ_TEMPLATE, [teamId, templateId, caller.userId]);
    if (rows.length === 0) throw NoteErrors.notFound(templateId);
    return { template: toNoteTemplate(rows[0]), isFavourited: rows[0].is_favourited };
  }
}
