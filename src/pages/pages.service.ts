import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { AppConfig } from '../config/app-config';
import { retryOnConflict, StaleRead } from '../database/retry-on-conflict';
import { Sql } from '../database/sql';
import type { SqlSession } from '../database/statement';
import { entityTag } from '../safe-writes/entity-tags';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { Announcer } from '../webhooks/announcer';
import { assertListedAccess } from '../workspaces/role-permissions';
import { CollaborationTokens } from './collaboration-tokens';
import { PageDto } from './dto/page.response';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageErrors } from './page-errors';
import { NO_CHANGE, TreeChange } from './page-plan';
import {
  KeptPageRow,
  LOCK_PAGE,
  LOCK_PAGE_PROJECTS,
  LOCK_READ_PAGE,
  PAGE_PLACE,
  PageRow,
  READ_PAGE,
  WRITE_PAGE,
  WrittenPageRow,
} from './page-queries';
import { factsParams, isStructural, PageTree } from './page-tree';
import { writePageParams } from './page-write';
import { indexOf, parentKeyOf } from './sibling-order';
import { toPageView } from './page.view';

/** One page update: who asks what of which page, and the collaboration token its answer carries. */
interface PageWrite {
  caller: Caller;
  teamId: string;
  pageId: string;
  patch: UpdatePageDto;
  conditions: WriteConditions;
  collaborationToken: string;
}

@Injectable()
export class PagesService {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
    private readonly collaboration: CollaborationTokens,
    private readonly announcer: Announcer,
  ) {}

  /** Guests see only pages that list them; everyone else in the workspace sees every page. */
  async get(caller: Caller, teamId: string, pageId: string): Promise<Versioned<PageDto>> {
    const [row] = fitsBigint(pageId) ? await this.db.query(READ_PAGE, [teamId, pageId, caller.userId]) : [];
    return this.view(caller, pageId, row, this.collaboration.issue(teamId, pageId, caller.userId));
  }

  /**
   * One request, one change: the page's own fields and its place in the tree change together or not
   * at all. Title and display changes are one statement that locks the row. Structural changes are a
   * transaction: the projects' advisory locks first, then the row lock with the facts and neighbour
   * keys read under it, then the write. Deadlocks and stale reads are retried, never returned. If-Match
   * is compared under the row's lock, after the 404 and 403 and before the tree's rules.
   */
  async update(
    caller: Caller,
    teamId: string,
    pageId: string,
    patch: UpdatePageDto,
    conditions: WriteConditions,
  ): Promise<Versioned<PageDto>> {
    if (!fitsBigint(pageId)) throw PageErrors.notFound(pageId);
    const kept = conditions.kept<KeptPageRow>();
    if (kept) return this.view(caller, pageId, kept, kept.collaboration_token);
    const collaborationToken = this.collaboration.issue(teamId, pageId, caller.userId);
    const write: PageWrite = { caller, teamId, pageId, patch, conditions, collaborationToken };
    // The response is built after the transaction: the projects' locks are held for the SQL only.
    const row = isStructural(patch) ? await this.restructure(write) : await this.change(write);
    const answer = this.view(caller, pageId, row, collaborationToken);
    conditions.assertKeyHeld(row!); // view() has thrown 404 without a row
    return answer;
  }

  /**
   * A title or display change: WRITE_PAGE alone. When the page changed while it waited for the row,
   * it wrote nothing: it runs once more on its own (its new snapshot has the change it waited for),
   * then with the row locked first, so that it reads siblings and archive as of then. With If-Match,
   * the locked row is read and compared first.
   */
  private async change(write: PageWrite): Promise<WrittenPageRow | undefined> {
    const { caller, teamId, pageId, conditions } = write;
    if (!conditions.ifMatch) {
      for (let attempt = 1; attempt <= 2; attempt++) {
        const row = await this.write(this.db, write, NO_CHANGE);
        if (!row?.stale) return row;
      }
    }
    return retryOnConflict(() =>
      this.db.transaction(async (tx) => {
        if (!conditions.ifMatch) await tx.query(LOCK_PAGE, [teamId, pageId]);
        else this.assertMatches(write, (await tx.query(LOCK_READ_PAGE, [teamId, pageId, caller.userId]))[0]);
        return this.write(tx, write, NO_CHANGE);
      }),
    );
  }

  /** The structural change's transaction, its row read back. */
  private async restructure(write: PageWrite): Promise<WrittenPageRow | undefined> {
    const { caller, teamId, pageId, patch, conditions } = write;
    return retryOnConflict(() =>
      this.db.transaction(async (tx) => {
        const params = factsParams(teamId, pageId, caller.userId, patch);
        const [seen] = await tx.query(LOCK_PAGE_PROJECTS, params);
        const keysAt = PageTree.keysNeededAt(pageId, seen, patch);
        const [page] = await tx.query(PAGE_PLACE, [
          ...params,
          keysAt?.projectId ?? null,
          keysAt ? parentKeyOf(keysAt) : '-1',
          indexOf(patch.position),
        ]);
        if (!page) throw PageErrors.notFound(pageId);
        assertListedAccess(caller, page.caller_is_member);
        if (conditions.ifMatch)
          this.assertMatches(write, (await tx.query(READ_PAGE, [teamId, pageId, caller.userId]))[0]);
        const tree = await new PageTree(pageId, page).change(
          tx,
          teamId,
          patch,
          new Set(seen.locked_projects),
          keysAt,
          page,
        );
        for (const step of tree.steps) await step.run(tx);
        const row = await this.write(tx, write, tree);
        if (row?.stale) throw new StaleRead(); // PAGE_PLACE holds the row: never expected
        if (row) conditions.assertKeyHeld(row); // rolls the tree's steps back
        return row;
      }),
    );
  }

  private async write(tx: SqlSession, write: PageWrite, tree: TreeChange): Promise<WrittenPageRow | undefined> {
    const { caller, teamId, pageId, patch, conditions, collaborationToken } = write;
    const params = writePageParams(caller, teamId, pageId, patch, tree, conditions.key, collaborationToken);
    return (await this.announcer.write(tx, WRITE_PAGE, teamId, params, conditions.keyed))[0];
  }

  /** 412 unless If-Match names the locked page's ETag; 404 and 403 first. */
  private assertMatches({ caller, pageId, conditions }: PageWrite, current: PageRow | undefined): void {
    if (!current) throw PageErrors.notFound(pageId);
    assertListedAccess(caller, current.caller_is_member);
    conditions.assertMatches(pageETag(current));
  }

  /** The page as the caller may see it: 404 when there is none, 403 for a guest it does not list. */
  private view(
    caller: Caller,
    pageId: string,
    row: PageRow | undefined,
    collaborationToken: string,
  ): Versioned<PageDto> {
    if (!row) throw PageErrors.notFound(pageId);
    assertListedAccess(caller, row.caller_is_member);
    return new Versioned(toPageView(row, collaborationToken, this.config.publicPagesBaseUrl), pageETag(row));
  }
}

/**
 * A page's ETag: its version, and its place (its rank among its siblings, which their moves change
 * too) or, archived, when its archive began.
 */
export const pageETag = (row: PageRow) => entityTag(`${row.version}.${row.position ?? `a${row.time_archived}`}`);
