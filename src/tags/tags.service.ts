import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { keysetAnswer, ListCursor } from '../common/list-cursor';
import { ListPage } from '../common/list-query';
import { fitsBigint } from '../common/numeric-id';
import { Sql } from '../database/sql';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { WriteSequence } from '../write-path/write-sequence';
import { CreateTagDto } from './dto/create-tag.dto';
import { ListTagsQuery, TAGS_PER_ANSWER } from './dto/list-tags.query';
import { UpdateTagDto } from './dto/update-tag.dto';
import { TagDto } from '../cards/dto/card.response';
import { TagErrors } from './tag-errors';
import {
  CREATE_TAG,
  DELETE_TAG,
  LIST_ALL_TAGS,
  LIST_PROJECT_TAGS,
  LIST_WORKSPACE_TAGS,
  ListTagsParams,
  LOCK_TAG,
  LOCK_TAG_FOR_DELETE,
  PROJECT_EXISTS,
  TagRow,
  UPDATE_TAG,
} from './tag-queries';
import { slugify } from './tag-slug';
import { toTagView } from './tag.view';
import { nameTakenOnWrite } from './tag-name-conflict';

/** Where an answer of a tag list stopped: the last tag's name key and id. */
type Position = [string, string];
const isPosition = (p: unknown[]): p is Position =>
  p.length === 2 && typeof p[0] === 'string' && typeof p[1] === 'string' && /^-?[0-9]{1,19}$/.test(p[1]);
const START: Position = ['', '-1'];

@Injectable()
export class TagsService {
  constructor(
    private readonly db: Sql,
    private readonly writes: WriteSequence,
  ) {}

  /** One answer of a tag list, by name ignoring case then id, from where the cursor says (keyset). */
  async list(teamId: string, query: ListTagsQuery): Promise<Versioned<{ tags: TagDto[] } & ListPage>> {
    const filters = { project_id: query.project_id, all: query.all };
    const [afterName, afterId] = query.cursor ? ListCursor.decode(query.cursor, 'tags', filters, isPosition) : START;
    const limit = query.limit ?? TAGS_PER_ANSWER.fallback;
    const page = { teamId, afterName, afterId, limit: limit + 1 };
    const rows = query.all
      ? await this.db.query(LIST_ALL_TAGS, page)
      : query.project_id === undefined
        ? await this.db.query(LIST_WORKSPACE_TAGS, page)
        : await this.projectTags(teamId, query.project_id, page);
    const { shown, next } = keysetAnswer(rows, limit, (last) => [last.name_key, last.id]);
    const answer = {
      tags: shown.map(toTagView),
      count: shown.length,
      cursor: next && ListCursor.encode('tags', filters, next),
    };
    return new Versioned(answer, listETag(answer));
  }

  /** Creates a tag; of two creates of one name (ignoring case) in one scope, the database lets one through. */
  async create(caller: Caller, teamId: string, body: CreateTagDto, conditions: WriteConditions) {
    const projectId = body.project_id ?? null;
    return nameTakenOnWrite(projectId, () =>
      this.writes.run({
        conditions,
        statement: CREATE_TAG,
        params: {
          teamId,
          callerId: caller.userId,
          actor: JSON.stringify(caller.actor),
          projectId,
          name: body.name,
          slug: slugify(body.name),
          color: body.color,
        },
        lock: () => Promise.resolve(undefined),
        answer: (row) => {
          if (!row?.project_found) throw TagErrors.projectNotFound(projectId ?? '');
          if (row.taken) throw TagErrors.nameTaken(projectId);
          if (row.id === undefined || row.id === null) {
            if ('holds_key' in row) conditions.assertKeyHeld(row as { holds_key: boolean });
            throw new Error('A tag creation wrote nothing and gave no reason');
          }
          const tag = row as TagRow;
          return new Versioned(toTagView(tag), tagETag(tag), `/v1/${teamId}/tags/${tag.id}`);
        },
      }),
    );
  }

  /** Changes a tag's name or colour; its project is its name's scope and never changes. */
  async update(
    caller: Caller,
    teamId: string,
    tagId: string,
    patch: UpdateTagDto,
    conditions: WriteConditions,
  ): Promise<Versioned<TagDto>> {
    if (!fitsBigint(tagId)) throw TagErrors.notFound(tagId);
    const key = { teamId, tagId };
    const params = {
      ...key,
      callerId: caller.userId,
      actor: JSON.stringify(caller.actor),
      name: patch.name ?? null,
      slug: patch.name === undefined ? null : slugify(patch.name),
      color: patch.color ?? null,
    };
    return nameTakenOnWrite(undefined, () =>
      this.writes.run({
        conditions,
        statement: UPDATE_TAG,
        params,
        // project_id is checked against the stored tag, under its lock, after 404 and If-Match.
        alwaysLocks: patch.project_id !== undefined,
        lock: async (tx) => existing(tagId, (await tx.query(LOCK_TAG, key))[0]),
        etag: (_tx, tag) => tagETag(tag),
        change: (_tx, tag) => {
          if (patch.project_id !== undefined && patch.project_id !== tag.project_id)
            throw TagErrors.projectFixed(tagId);
          return Promise.resolve(params);
        },
        answer: (row) => {
          const tag = existing(tagId, row);
          if (row?.taken) throw TagErrors.nameTaken(tag.project_id);
          return new Versioned(toTagView(tag), tagETag(tag));
        },
      }),
    );
  }

  /** Deletes a tag and takes it off every card it is on, in one transaction (DELETE_TAG). */
  async delete(caller: Caller, teamId: string, tagId: string, conditions: WriteConditions): Promise<void> {
    if (!fitsBigint(tagId)) throw TagErrors.notFound(tagId);
    const key = { teamId, tagId };
    await this.writes.run({
      conditions,
      statement: DELETE_TAG,
      params: { ...key, callerId: caller.userId, actor: JSON.stringify(caller.actor) },
      alwaysLocks: true,
      lock: async (tx) => existing(tagId, (await tx.query(LOCK_TAG_FOR_DELETE, key))[0]),
      etag: (_tx, tag) => tagETag(tag),
      answer: (row) => {
        if (!row?.deleted) throw TagErrors.notFound(tagId);
      },
    });
  }

  private async projectTags(teamId: string, projectId: string, page: ListTagsParams) {
    const [project] = await this.db.query(PROJECT_EXISTS, { teamId, projectId });
    if (!project?.exists) throw TagErrors.projectNotFound(projectId);
    return this.db.query(LIST_PROJECT_TAGS, { ...page, projectId });
  }
}

function existing<Row>(tagId: string, row: Row | undefined): Row {
  if (!row) throw TagErrors.notFound(tagId);
  return row;
}

/** A list answer's ETag: a digest of what it shows (no part of it depends on the caller). */
const listETag = (answer: object) =>
  entityTag(createHash('sha256').update(JSON.stringify(answer)).digest('base64url').slice(0, 22));

/** A tag's ETag: its version. total_cards counts cards' rows, not the tag's, and is not part of it. */
const tagETag = (tag: Pick<TagRow, 'version'>) => entityTag(tag.version);
