import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { retryOnConflict, StaleRead } from '../common/retry-on-conflict';
import { AppConfig } from '../config/app-config';
import { Sql, SqlSession } from '../database/sql';
import { CommonErrors } from '../errors/common-errors';
import { limitedToListedResources } from '../workspaces/roles';
import { CollaborationTokens } from './collaboration-tokens';
import { PageDto } from './dto/page.response';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageErrors } from './page-errors';
import { PAGE_COLUMNS, PageColumns, pageFieldChanges } from './page-field-changes';
import { PAGE_STATE, READ_PAGE } from './page-queries';
import { PageState } from './page-state';
import { isStructural, NO_CHANGE, PageTree } from './page-tree';
import { lockProjects } from './project-locks';
import { PageRow, toPageView } from './page.view';

@Injectable()
export class PagesService {
  constructor(
    private readonly db: Sql,
    private readonly config: AppConfig,
    private readonly collaboration: CollaborationTokens,
  ) {}

  /** Guests see only pages that list them; everyone else in the workspace sees every page. */
  async get(caller: Caller, teamId: string, pageId: string): Promise<PageDto> {
    return this.read(this.db, caller, teamId, pageId);
  }

  /**
   * One request, one transaction: the page's own fields and its place in the tree change together or
   * not at all. Structural changes first take their projects' advisory locks, then the row lock;
   * field changes take only the row lock. Deadlocks and stale reads are retried, never returned.
   */
  async update(caller: Caller, teamId: string, pageId: string, patch: UpdatePageDto): Promise<PageDto> {
    if (!fitsBigint(pageId)) throw PageErrors.notFound(pageId);
    return retryOnConflict(() =>
      this.db.transaction(async (tx) => {
        const page = await this.lockedState(tx, caller, teamId, pageId, patch);
        const tree = page.patchIsStructural
          ? await new PageTree(tx, teamId, pageId, page.state, page.lockedProjects).change(patch, caller)
          : NO_CHANGE;
        const columns = { ...pageFieldChanges(page.state, patch), ...tree.columns };
        const changed = Object.keys(columns).length > 0 || tree.before.length > 0 || tree.after.length > 0;
        for (const [sql, params] of tree.before) await tx.query(sql, params);
        if (changed) await this.write(tx, caller, teamId, pageId, columns);
        for (const [sql, params] of tree.after) await tx.query(sql, params);
        return this.read(tx, caller, teamId, pageId, tree.position);
      }),
    );
  }

  /**
   * The page's state with its row locked — after the advisory locks of every project a structural
   * patch may touch, taken in order, so that movers never wait on each other in a cycle.
   */
  private async lockedState(tx: SqlSession, caller: Caller, teamId: string, pageId: string, patch: UpdatePageDto) {
    const patchIsStructural = isStructural(patch);
    let lockedProjects = new Set<string>();
    if (patchIsStructural) {
      const unlocked = await this.state(tx, caller, teamId, pageId, '');
      lockedProjects = await PageTree.projectsToLock(tx, teamId, pageId, unlocked, patch);
      await lockProjects(tx, teamId, lockedProjects);
    }
    const state = await this.state(tx, caller, teamId, pageId, 'FOR UPDATE OF p');
    if (patchIsStructural && !lockedProjects.has(state.project_id)) throw new StaleRead();
    return { state, lockedProjects, patchIsStructural };
  }

  private async state(tx: SqlSession, caller: Caller, teamId: string, pageId: string, lock: string): Promise<PageState> {
    const [state] = await tx.query(`${PAGE_STATE} ${lock}`, [teamId, pageId, caller.userId]);
    if (!state) throw PageErrors.notFound(pageId);
    if (limitedToListedResources(caller.role) && !state.caller_is_member) throw CommonErrors.accessDenied();
    return state;
  }

  /** One UPDATE of the page's changed columns, stamped with who changed it and when. */
  private async write(tx: SqlSession, caller: Caller, teamId: string, pageId: string, columns: PageColumns): Promise<void> {
    const entries = Object.entries(columns) as Array<[keyof typeof PAGE_COLUMNS, unknown]>;
    const sets = entries.map(([column], n) => `${column} = $${n + 4}::${PAGE_COLUMNS[column]}`);
    const values = entries.map(([column, value]) => (PAGE_COLUMNS[column] === 'jsonb' && value !== null ? JSON.stringify(value) : value));
    await tx.query(
      `UPDATE pages SET ${[...sets, 'updated_by = $3::jsonb', 'time_updated = now()'].join(', ')} WHERE team_id = $1 AND id = $2`,
      [teamId, pageId, JSON.stringify(caller.actor), ...values],
    );
  }

  private async read(tx: SqlSession, caller: Caller, teamId: string, pageId: string, position?: number | null): Promise<PageDto> {
    const [row]: PageRow[] = fitsBigint(pageId) ? await tx.query(READ_PAGE, [teamId, pageId, caller.userId, position ?? null]) : [];
    if (!row) throw PageErrors.notFound(pageId);
    if (limitedToListedResources(caller.role) && !row.caller_is_member) throw CommonErrors.accessDenied();
    return toPageView(row, this.collaboration.issue(teamId, pageId, caller.userId), this.config.publicPagesBaseUrl);
  }
}
