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
import { keysetAnswer, ListCursor } from '../common/list-cursor';
import { CreateNoteTemplateDto } from './dto/create-note-template.dto';
import { ListNoteTemplatesQuery, TEMPLATES_PER_ANSWER_MAX } from './dto/list-note-templates.query';
import { NoteTemplateListResponse } from './dto/note-template-list.response';
import { NoteErrors } from './note-errors';
import { CREATE_TEMPLATE, DELETE_TEMPLATE, LIST_TEMPLATES } from './note-template-lifecycle-queries';
import { createTemplateParams, writeTemplateParams } from './note-template-changes';
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

  /** A new template, owned by the caller. */
  async create(caller: Caller, teamId: string, body: CreateNoteTemplateDto, conditions: WriteConditions) {
    return this.writes.run({
      conditions,
      statement: CREATE_TEMPLATE,
      params: createTemplateParams(caller, teamId, body),
      lock: () => Promise.resolve(undefined),
      answer: (row) => {
        if (!row) throw new Error('A creation that holds its key always answers its template');
        return this.view(row.id, row).located(`/v1/${teamId}/notes/templates/${row.id}`);
      },
    });
  }

  /** Only the owner deletes, as only the owner updates. */
  async delete(caller: Caller, teamId: string, templateId: string, conditions: WriteConditions): Promise<void> {
    const key = { teamId, templateId, callerId: caller.userId };
    await this.writes.run({
      conditions,
      statement: DELETE_TEMPLATE,
      params: { ...key, actor: JSON.stringify(caller.actor) },
      lock: async (tx) => this.owned(caller, templateId, (await tx.query(LOCK_TEMPLATE, key))[0]),
      etag: (_tx, current) => templateETag(current),
      answer: (row) => {
        if (!row?.deleted) this.owned(caller, templateId, row); // refuses: no template, or not the caller's
      },
    });
  }

  /** One answer of the templates the caller may read, in the list's order, and the cursor to what follows. */
  async list(caller: Caller, teamId: string, query: ListNoteTemplatesQuery): Promise<NoteTemplateListResponse> {
    const limit = query.limit ?? TEMPLATES_PER_ANSWER_MAX;
    const [afterOwned, afterTitle, afterId] =
      query.cursor === undefined ? [null, null, null] : ListCursor.decode(query.cursor, TEMPLATE_LIST, {}, isPosition);
    const rows = await this.db.query(LIST_TEMPLATES, {
      teamId,
      callerId: caller.userId,
      afterOwned,
      afterTitle,
      afterId,
      take: limit + 1,
    });
    const { shown, next } = keysetAnswer(rows, limit, (last) => [last.owned, last.title_key, last.id]);
    return {
      note_templates: shown.map((row) => toNoteTemplateView(toNoteTemplate(row), row.is_favourited)),
      count: shown.length,
      cursor: next && ListCursor.encode(TEMPLATE_LIST, {}, next),
    };
  }

  /** The template, when it exists and the caller owns it. */
  private owned<Row extends { owner_id: string | null }>(
    caller: Caller,
    templateId: string,
    row: Row | undefined,
  ): Row {
    if (!row) throw NoteErrors.notFound(templateId);
    if (row.owner_id !== caller.userId) throw CommonErrors.accessDenied();
    return row;
  }

  private view(templateId: string, row: TemplateRow | undefined): Versioned<NoteTemplateDto> {
    if (!row) throw NoteErrors.notFound(templateId);
    return new Versioned(toNoteTemplateView(toNoteTemplate(row), row.is_favourited), templateETag(row));
  }
}

const TEMPLATE_LIST = 'note_templates';

const isPosition = (position: unknown[]): position is [boolean, string, string] =>
  position.length === 3 &&
  typeof position[0] === 'boolean' &&
  typeof position[1] === 'string' &&
  typeof position[2] === 'string';

/** A template's ETag: its version. */
const templateETag = (row: TemplateRow) => entityTag(row.version);
