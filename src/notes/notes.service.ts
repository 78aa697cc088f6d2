import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { Sql } from '../database/sql';
import { CommonErrors } from '../errors/common-errors';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { WriteSequence } from '../write-path/write-sequence';
import { UpdateNoteTemplateDto } from './dto/update-note-template.dto';
import { NoteTemplateDto } from './dto/note-template.response';
import { NoteErrors } from './note-errors';
import { writeTemplateParams } from './note-template-changes';
import { LOCK_TEMPLATE, READ_TEMPLATE, TemplateRow, toNoteTemplate, WRITE_TEMPLATE } from './note-template-queries';
import { toNoteTemplateView } from './note-template.view';

@Injectable()
export class NotesService {
  constructor(
    private readonly db: Sql,
    private readonly writes: WriteSequence,
  ) {}

  /** Owners see their templates; every member sees shared and built-in ones. */
  async get(caller: Caller, teamId: string, templateId: string): Promise<Versioned<NoteTemplateDto>> {
    const [row] = await this.db.query(READ_TEMPLATE, { teamId, templateId, callerId: caller.userId });
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
    conditions: WriteConditions,
  ): Promise<Versioned<NoteTemplateDto>> {
    const key = { teamId, templateId, callerId: caller.userId };
    return this.writes.run({
      conditions,
      statement: WRITE_TEMPLATE,
      params: writeTemplateParams(caller, teamId, templateId, patch),
      lock: async (tx) => this.owned(caller, templateId, (await tx.query(LOCK_TEMPLATE, key))[0]),
      etag: (_tx, current) => templateETag(current),
      answer: (row) => this.view(templateId, this.owned(caller, templateId, row)),
    });
  }

  /** The template, when it exists and the caller owns it. */
  private owned(caller: Caller, templateId: string, row: TemplateRow | undefined): TemplateRow {
    if (!row) throw NoteErrors.notFound(templateId);
    if (row.owner_id !== caller.userId) throw CommonErrors.accessDenied();
    return row;
  }

  private view(templateId: string, row: TemplateRow | undefined): Versioned<NoteTemplateDto> {
    if (!row) throw NoteErrors.notFound(templateId);
    return new Versioned(toNoteTemplateView(toNoteTemplate(row), row.is_favourited), templateETag(row));
  }
}

/** A template's ETag: its version. */
const templateETag = (row: TemplateRow) => entityTag(row.version);
