import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { AppConfig } from '../config/app-config';
import { Sql } from '../database/sql';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { Write, WriteSequence } from '../write-path/write-sequence';
import { assertListedAccess } from '../workspaces/role-permissions';
import { CollaborationTokens } from './collaboration-tokens';
import { PageDto } from './dto/page.response';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageErrors } from './page-errors';
import { NO_CHANGE } from './page-plan';
import {
  KeptPageRow,
  LOCK_PAGE_PROJECTS,
  LOCK_READ_PAGE,
  NeighbourKeys,
  PAGE_PLACE,
  PageFacts,
  PageRow,
  READ_PAGE,
  WRITE_PAGE,
  WritePageParams,
  WrittenPageRow,
} from './page-queries';
import { factsParams, isStructural, PageTree } from './page-tree';
import { treeParams, writePageParams } from './page-write';
import { indexOf, parentKeyOf, Place } from './sibling-order';
import { toPageView } from './page.view';

@Injectable()
export class PagesService {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
    private readonly collaboration: CollaborationTokens,
    private readonly writes: WriteSequence,
  ) {}

  /** Guests see only pages that list them; everyone else in the workspace sees every page. */
  async get(caller: Caller, teamId: string, pageId: string): Promise<Versioned<PageDto>> {
    const [row] = fitsBigint(pageId) ? await this.db.query(READ_PAGE, { teamId, pageId, callerId: caller.userId }) : [];
    return this.view(caller, pageId, row, this.collaboration.issue(teamId, pageId, caller.userId));
  }

  /**
   * One request, one change: the page's own fields and its place in the tree change together or not
   * at all. A title or display change is WRITE_PAGE alone, which locks the row; when the page changed
   * while it waited for the row, it wrote nothing, and runs once more on its own (its new snapshot has
   * the change it waited for), then with the row locked first, so that it reads siblings and archive
   * as of then. A structural change is a transaction (restructure). If-Match is compared under the
   * row's lock, after the 404 and 403 and before the tree's rules.
   */
  async update(
    caller: Caller,
    teamId: string,
    pageId: string,
    patch: UpdatePageDto,
    conditions: WriteConditions,
  ): Promise<Versioned<PageDto>> {
    if (!fitsBigint(pageId)) throw PageErrors.notFound(pageId);
    const key = { teamId, pageId, callerId: caller.userId };
    const collaborationToken = this.collaboration.issue(teamId, pageId, caller.userId);
    const answer = (row: WrittenPageRow | undefined) =>
      this.view(caller, pageId, row, (row as KeptPageRow | undefined)?.collaboration_token ?? collaborationToken);
    const params = writePageParams(caller, teamId, pageId, patch, NO_CHANGE, collaborationToken);
    if (isStructural(patch)) return this.writes.run(this.restructure(caller, patch, conditions, params, answer));
    return this.writes.run({
      conditions,
      statement: WRITE_PAGE,
      params,
      lock: async (tx) => this.listed(caller, pageId, (await tx.query(LOCK_READ_PAGE, key))[0]),
      etag: (_tx, current) => pageETag(current),
      stale: (row) => row.stale,
      answer,
    });
  }

  /**
   * A structural change, in one transaction: the projects' advisory locks first, then the row lock
   * with the facts and neighbour keys read under it, then the tree's steps and the write. Deadlocks
   * and stale reads run it again, never reach the caller.
   */
  private restructure(
    caller: Caller,
    patch: UpdatePageDto,
    conditions: WriteConditions,
    params: WritePageParams,
    answer: (row: WrittenPageRow | undefined) => Versioned<PageDto>,
  ): Write<WritePageParams, WrittenPageRow, PlacedPage, Versioned<PageDto>> {
    const { teamId, pageId } = params;
    const facts = factsParams(teamId, pageId, caller.userId, patch);
    return {
      conditions,
      statement: WRITE_PAGE,
      params,
      alwaysLocks: true,
      lock: async (tx) => {
        const [seen] = await tx.query(LOCK_PAGE_PROJECTS, facts);
        const keysAt = PageTree.keysNeededAt(pageId, seen, patch);
        const [page] = await tx.query(PAGE_PLACE, {
          ...facts,
          keysProjectId: keysAt?.projectId ?? null,
          keysParentKey: keysAt ? parentKeyOf(keysAt) : '-1',
          keysIndex: indexOf(patch.position),
        });
        return { seen, keysAt, page: this.listed(caller, pageId, page) };
      },
      etag: async (tx, _placed) =>
        pageETag(
          this.listed(caller, pageId, (await tx.query(READ_PAGE, { teamId, pageId, callerId: caller.userId }))[0]),
        ),
      change: async (tx, { seen, keysAt, page }) => {
        const tree = await new PageTree(pageId, page).change(
          tx,
          teamId,
          patch,
          new Set(seen.locked_projects),
          keysAt,
          page,
        );
        for (const step of tree.steps) await step.run(tx);
        return { ...params, ...treeParams(tree) };
      },
      stale: (row) => row.stale,
      answer,
    };
  }

  /** The page, when it exists and the caller may see and write it (a guest, only one that lists them). */
  private listed<Row extends { caller_is_member: boolean }>(caller: Caller, pageId: string, row: Row | undefined): Row {
    if (!row) throw PageErrors.notFound(pageId);
    assertListedAccess(caller, row.caller_is_member);
    return row;
  }

  /** The page as the caller may see it: 404 when there is none, 403 for a guest it does not list. */
  private view(
    caller: Caller,
    pageId: string,
    row: PageRow | undefined,
    collaborationToken: string,
  ): Versioned<PageDto> {
    const page = this.listed(caller, pageId, row);
    return new Versioned(toPageView(page, collaborationToken, this.config.publicPagesBaseUrl), pageETag(page));
  }
}

/** What a structural change holds once locked: the facts read before and under the locks, where it needs keys. */
interface PlacedPage {
  seen: PageFacts & { locked_projects: string[] };
  keysAt: Place | null;
  page: PageFacts & NeighbourKeys;
}

/**
 * A page's ETag: its version, and its place (its rank among its siblings, which their moves change
 * too) or, archived, when its archive began.
 */
export const pageETag = (row: PageRow) => entityTag(`${row.version}.${row.position ?? `a${row.time_archived}`}`);
