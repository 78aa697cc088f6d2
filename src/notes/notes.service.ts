import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { Sql } from '../database/sql';
import { CommonErrors } from '../errors/common-errors';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { Announcer } from '../webhooks/announcer';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NoteTemplateDto } from './dto/note-template.response';
import { NoteErrors } from './note-errors';
import { writeTemplateParams } from './note-template-changes';
import {
  LOCK_TEMPLATE,
  READ_TEMPLATE,
  TemplateRow,
  toNoteTemplate,
  WRITE_TEMPLATE,
  WrittenTemplateRow,
} from './note-template-queries';
import { toNoteTemplateView } from './note-template.view';

@Injectable()
export class NotesService {
  constructor(
    private readonly db: Sql,
    private readonly announcer: Announcer,
  ) {}

  /** Owners see their templates; every member sees shared and built-in ones. */
  async get(caller: Caller, teamId: string, templateId: string): Promise<Versioned<NoteTemplateDto>> {
    const [row] = await this.db.query(READ_TEMPLATE, [teamId, templateId, caller.userId]);
    const readable = row && (row.owner_id === caller.userId || row.owner_id === null || row.is_shared);
    if (row && !readable) throw CommonErrors.accessDenied();
    return this.view(templateId, row);
  }

  /**
   * Only the owner updates; only the fields that really change are written (WRITE_TEMPLATE). With
   * If-Match, the row is locked and its version compared first, in the write's transaction.
   */
  async update(
    caller: Caller,
    teamId: string,
    templateId: string,
    patch: UpdateNoteTemplateDto,
    conditions: WriteConditions,
  ): Promise<Versioned<NoteTemplateDto>> {
    const params = writeTemplateParams(caller, teamId, templateId, patch, conditions.key);
    const row =
      conditions.kept<WrittenTemplateRow>() ??
      (conditions.ifMatch
        ? await this.db.transaction(async (tx) => {
            const [current] = await tx.query(LOCK_TEMPLATE, [teamId, templateId, caller.userId]);
            this.assertOwned(caller, templateId, current);
            conditions.assertMatches(templateETag(current));
            return (await this.announcer.write(tx, WRITE_TEMPLATE, teamId, params, conditions.keyed))[0];
          })
        : (await this.announcer.write(this.db, WRITE_TEMPLATE, teamId, params, conditions.keyed))[0]);
    this.assertOwned(caller, templateId, row);
    conditions.assertKeyHeld(row);
    return this.view(templateId, row);
  }

  private assertOwned(caller: Caller, templateId: string, row: TemplateRow | undefined): asserts row is TemplateRow {
    if (!row) throw NoteErrors.notFound(templateId);
    if (row.owner_id !== caller.userId) throw CommonErrors.accessDenied();
  }

  private view(templateId: string, row: TemplateRow | undefined): Versioned<NoteTemplateDto> {
    if (!row) throw NoteErrors.notFound(templateId);
    return new Versioned(toNoteTemplateView(toNoteTemplate(row), row.is_favourited), templateETag(row));
  }
}

/** A template's ETag: its version. */
const templateETag = (row: TemplateRow) => entityTag(row.version);
