import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { AppConfig } from '../config/app-config';
import { retryOnConflict, StaleRead } from '../database/retry-on-conflict';
import { Sql } from '../database/sql';
import type { SqlSession } from '../database/statement';
import { assertListedAccess } from '../workspaces/role-permissions';
import { CollaborationTokens } from './collaboration-tokens';
import { PageDto } from './dto/page.response';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageErrors } from './page-errors';
import { NO_CHANGE, TreeChange } from './page-plan';
import { LOCK_PAGE, LOCK_PAGE_PROJECTS, PAGE_PLACE, PageRow, READ_PAGE, WRITE_PAGE } from './page-queries';
import { factsParams, isStructural, PageTree } from './page-tree';
import { writePageParams } from './page-write';
import { indexOf, parentKeyOf } from './sibling-order';
import { toPageView } from './page.view';

@Injectable()
export class PagesService {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
    private readonly collaboration: CollaborationTokens,
  ) {}

  /** Guests see only pages that list them; everyone else in the workspace sees every page. */
  async get(caller: Caller, teamId: string, pageId: string): Promise<PageDto> {
    const [row] = fitsBigint(pageId) ? await this.db.query(READ_PAGE, [teamId, pageId, caller.userId]) : [];
    return this.view(caller, teamId, pageId, row);
  }

  /**
   * One request, one change: the page's own fields and its place in the tree change together or not
   * at all. Title and display changes are one statement that locks the row. Structural changes are a
   * transaction: the projects' advisory locks first, then the row lock with the facts and neighbour
   * keys read under it, then the write. Deadlocks and stale reads are retried, never returned.
   */
  async update(caller: Caller, teamId: string, pageId: string, patch: UpdatePageDto): Promise<PageDto> {
    if (!fitsBigint(pageId)) throw PageErrors.notFound(pageId);
    // The response is built after the transaction: the projects' locks are held for the SQL only.
    const row = isStructural(patch)
      ? await this.restructure(caller, teamId, pageId, patch)
      : await this.change(caller, teamId, pageId, patch);
    return this.view(caller, teamId, pageId, row);
  }

  /**
   * A title or display change: WRITE_PAGE alone. When the page changed while it waited for the row,
   * it wrote nothing: it runs once more on its own (its new snapshot has the change it waited for),
   * then with the row locked first, so that it reads siblings and archive as of then.
   */
  private async change(
    caller: Caller,
    teamId: string,
    pageId: string,
    patch: UpdatePageDto,
  ): Promise<PageRow | undefined> {
    for (let attempt = 1; attempt <= 2; attempt++) {
      const row = await this.write(this.db, caller, teamId, pageId, patch, NO_CHANGE);
      if (!row?.stale) return row;
    }
    return retryOnConflict(() =>
      this.db.transaction(async (tx) => {
        await tx.query(LOCK_PAGE, [teamId, pageId]);
        return this.write(tx, caller, teamId, pageId, patch, NO_CHANGE);
      }),
    );
  }

  /** The structural change's transaction, its row read back. */
  private async restructure(
    caller: Caller,
    teamId: string,
    pageId: string,
    patch: UpdatePageDto,
  ): Promise<PageRow | undefined> {
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
        const tree = await new PageTree(pageId, page).change(
          tx,
          teamId,
          patch,
          new Set(seen.locked_projects),
          keysAt,
          page,
        );
        for (const step of tree.steps) await step.run(tx);
        const row = await this.write(tx, caller, teamId, pageId, patch, tree);
        if (row?.stale) throw new StaleRead(); // PAGE_PLACE holds the row: never expected
        return row;
      }),
    );
  }

  private async write(
    tx: SqlSession,
    caller: Caller,
    teamId: string,
    pageId: string,
    patch: UpdatePageDto,
    tree: TreeChange,
  ) {
    const [row] = await tx.query(WRITE_PAGE, writePageParams(caller, teamId, pageId, patch, tree));
    return row;
  }

  /** The page as the caller may see it: 404 when there is none, 403 for a guest it does not list. */
  private view(caller: Caller, teamId: string, pageId: string, row: PageRow | undefined): PageDto {
    if (!row) throw PageErrors.notFound(pageId);
    assertListedAccess(caller, row.caller_is_member);
    return toPageView(row, this.collaboration.issue(teamId, pageId, caller.userId), this.config.publicPagesBaseUrl);
  }
}
