import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { keysetAnswer, ListCursor, ListFilters } from '../common/list-cursor';
import { AppConfig } from '../config/app-config';
import { Sql } from '../database/sql';
import { CommonErrors } from '../errors/common-errors';
import { limitedToListedResources } from '../workspaces/role-permissions';
import { ListPagesQuery, PAGE_LIST_DEFAULT } from './dto/list-pages.query';
import { PageListResponse, PageSummaryDto } from './dto/page-list.response';
import { CURSOR_HOURS } from '../../migrations/0014-page-list-indexes';
import { PageErrors } from './page-errors';
import {
  LIST_ARCHIVED_PAGES,
  LIST_CHILD_PAGES,
  LIST_RECENT_PAGES,
  LIST_SCOPE,
  WALK_PAGE_TREE,
} from './page-list-queries';
import { PageRow } from './page-queries';
import { toPageView } from './page.view';

const LIST = 'pages';
/** How many pages a guest's answer walks at most, looking for pages that list them (docs/page-list.md). */
const GUEST_WALK = 500;

/** Where an answer stopped, by kind of list: what a cursor holds. */
/** The first answer's time (ms) and snapshot, then the walk's project, path ids and path keys. */
type TreePosition = ['tree', number, string, string | null, string[], string[]];
type ChildPosition = ['children', string];
type TimedPosition = ['timed', string, string, string];
type Position = TreePosition | ChildPosition | TimedPosition;

const strings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');
const bigints = (values: unknown[]) =>
  values.every((v) => typeof v === 'string' && /^-?\d{1,19}$/.test(v) && fitsBigint(v.replace('-', '')));

/** What a cursor of each kind of list must hold: the kind, then its keys. */
const SHAPES: Record<Position[0], (p: unknown[]) => boolean> = {
  tree: (p) =>
    p.length === 6 &&
    typeof p[1] === 'number' &&
    Date.now() - p[1] < CURSOR_HOURS * 3_600_000 &&
    typeof p[2] === 'string' &&
    /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20})*)?$/.test(p[2]) &&
    (p[3] === null || typeof p[3] === 'string') &&
    strings(p[4]) &&
    strings(p[5]) &&
    p[4].length === p[5].length &&
    bigints(p[4]),
  children: (p) => p.length === 2 && typeof p[1] === 'string',
  timed: (p) => p.length === 4 && bigints(p.slice(1)),
};
const kindOf = (query: ListPagesQuery): Position[0] =>
  query.archived || query.updated_recently ? 'timed' : query.parent_page_id !== undefined ? 'children' : 'tree';

/** The rows of one answer, and the position after its last (null: nothing follows). */
interface Answer {
  rows: PageRow[];
  next: Position | null;
}

/**
 * GET /v1/{team_id}/pages (decisions.md, The content lifecycle; docs/page-list.md): four keyset lists,
 * chosen by the filters, each resumed from the position its cursor holds.
 */
@Injectable()
export class PageList {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
  ) {}

  async list(caller: Caller, teamId: string, query: ListPagesQuery): Promise<PageListResponse> {
    const filters: ListFilters = {
      project_id: query.project_id,
      parent_page_id: query.parent_page_id,
      // false is the default: a cursor made without it serves with it.
      archived: query.archived || undefined,
      updated_recently: query.updated_recently || undefined,
    };
    const kind = kindOf(query);
    const isPosition = (p: unknown[]): p is Position => p[0] === kind && SHAPES[kind](p);
    const after = query.cursor ? ListCursor.decode(query.cursor, LIST, filters, isPosition) : undefined;
    if (query.parent_page_id === '' && query.project_id === undefined)
      throw CommonErrors.validation('parent_page_id "" (the root pages of a project) needs project_id');
    const projectId = await this.scope(teamId, query);
    const limit = query.limit ?? PAGE_LIST_DEFAULT;
    const base = { teamId, callerId: caller.userId, guest: limitedToListedResources(caller.role), limit: limit + 1 };
    const parentKey = query.parent_page_id === undefined ? null : query.parent_page_id || '-1';
    const answer =
      kind === 'timed'
        ? await this.timed(base, query, projectId, parentKey, after as TimedPosition | undefined, limit)
        : kind === 'children'
          ? await this.children(base, projectId!, parentKey!, after as ChildPosition | undefined, limit)
          : await this.tree(base, query.project_id ?? null, after as TreePosition | undefined, limit);
    const pages = answer.rows.map((row) => this.summary(row));
    return {
      pages,
      count: pages.length,
      cursor: answer.next ? ListCursor.encode(LIST, filters, answer.next) : null,
    };
  }

  /** 404 for a project or parent that names nothing; the project the list reads (a parent's own). */
  private async scope(teamId: string, query: ListPagesQuery): Promise<string | null> {
    const parentId = query.parent_page_id || null;
    if (query.project_id === undefined && parentId === null) return null;
    if (parentId !== null && !fitsBigint(parentId)) throw PageErrors.parentNotFound(parentId);
    const [found] = await this.db.query(LIST_SCOPE, { teamId, projectId: query.project_id ?? null, parentId });
    if (query.project_id !== undefined && !found.project_found) throw PageErrors.projectNotFound(query.project_id);
    if (parentId !== null && found.parent_project === null) throw PageErrors.parentNotFound(parentId);
    return query.project_id ?? found.parent_project;
  }

  /** Active pages in tree order, walked on from the cursor's path; a guest's walk goes further, keeping theirs. */
  private async tree(base: Base, onlyProject: string | null, after: TreePosition | undefined, limit: number) {
    const steps = base.guest ? Math.max(GUEST_WALK, limit) : limit;
    const walked = await this.db.query(WALK_PAGE_TREE, {
      teamId: base.teamId,
      callerId: base.callerId,
      onlyProject: onlyProject !== null,
      snapshot: after ? after[2] : null,
      projectId: after ? after[3] : onlyProject,
      pathIds: after ? after[4] : [],
      pathKeys: after ? after[5] : [],
      steps: steps + 1,
    });
    const kept = walked
      .slice(0, steps)
      .filter((row) => row.listed && (!base.guest || row.caller_is_member))
      .slice(0, limit);
    const last = kept.length === limit ? kept[limit - 1] : walked.length > steps ? walked[steps - 1] : undefined;
    return {
      rows: kept,
      next: last
        ? ([
            'tree',
            after?.[1] ?? Date.now(),
            last.snapshot,
            last.walk_project,
            last.path_ids,
            last.path_keys,
          ] as TreePosition)
        : null,
    } satisfies Answer;
  }

  /** One parent's active children, by position. */
  private async children(
    base: Base,
    projectId: string,
    parentKey: string,
    after: ChildPosition | undefined,
    limit: number,
  ) {
    const rows = await this.db.query(LIST_CHILD_PAGES, { ...base, projectId, parentKey, afterKey: after?.[1] ?? null });
    const { shown, next } = keysetAnswer(rows, limit, (last): ChildPosition => ['children', last.sort_key]);
    return { rows: shown, next } satisfies Answer;
  }

  /** Archived pages by archive time, or recently changed pages by change time, newest first. */
  private async timed(
    base: Base,
    query: ListPagesQuery,
    projectId: string | null,
    parentKey: string | null,
    after: TimedPosition | undefined,
    limit: number,
  ) {
    const params = {
      ...base,
      projectId,
      parentKey,
      afterMicros: after?.[2] ?? null,
      afterId: after?.[3] ?? null,
    };
    if (!query.updated_recently) {
      const rows = await this.db.query(LIST_ARCHIVED_PAGES, params);
      return this.timedAnswer(rows, limit, '0');
    }
    const rows = await this.db.query(LIST_RECENT_PAGES, {
      ...params,
      archived: query.archived ?? false,
      sinceMicros: after?.[1] ?? null,
    });
    return this.timedAnswer(rows, limit, rows[0]?.since_micros ?? '0');
  }

  private timedAnswer(rows: Array<PageRow & { order_micros: string }>, limit: number, since: string): Answer {
    const { shown, next } = keysetAnswer(rows, limit, (last): TimedPosition => [
      'timed',
      since,
      last.order_micros,
      last.id,
    ]);
    return { rows: shown, next };
  }

  private summary(row: PageRow): PageSummaryDto {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { content, collaboration, ...summary } = toPageView(row, '', this.config.publicPagesBaseUrl);
    return summary;
  }
}

interface Base {
  teamId: string;
  callerId: string;
  guest: boolean;
  limit: number;
}
