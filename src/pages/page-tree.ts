import type { SqlSession } from '../database/sql';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { StaleRead } from '../common/retry-on-conflict';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageErrors } from './page-errors';
import { PageColumns } from './page-field-changes';
import { ARCHIVE_SUBTREE, MOVE_SUBTREE_TO_PROJECT, PARENT_STATE, PROJECT_EXISTS, UNARCHIVE_SUBTREE } from './page-queries';
import { isArchived, PageState } from './page-state';
import { Place, Slot, sortKeyAt } from './sibling-order';

type Statement = [sql: string, params: unknown[]];

/** What a patch does to the page's place in the tree: statements around the page's own UPDATE. */
export interface TreeChange {
  before: Statement[];
  columns: PageColumns;
  after: Statement[];
  /** The page's new position, when known without counting its siblings. */
  position?: number | null;
}

export const NO_CHANGE: TreeChange = { before: [], columns: {}, after: [] };

export const isStructural = (patch: UpdatePageDto) =>
  patch.parent_page_id !== undefined || patch.position !== undefined || patch.project_id !== undefined || patch.archived !== undefined;

/**
 * Moves, reorders, archives and unarchives one page, with its subtree. Runs inside a transaction that
 * holds the advisory locks of every project in `locked` and the page's row lock, so the siblings and
 * ancestries it reads cannot change before it writes.
 */
export class PageTree {
  constructor(
    private readonly tx: SqlSession,
    private readonly teamId: string,
    private readonly pageId: string,
    private readonly page: PageState,
    private readonly locked: ReadonlySet<string>,
  ) {}

  /** The projects a patch may touch, read before locking (the transaction re-checks them after). */
  static async projectsToLock(tx: SqlSession, teamId: string, pageId: string, page: PageState, patch: UpdatePageDto): Promise<Set<string>> {
    const projects = new Set([page.project_id]);
    if (patch.project_id !== undefined) projects.add(patch.project_id);
    const restoresToFormerParent = isArchived(page) && patch.archived === false && patch.parent_page_id === undefined && patch.project_id === undefined;
    const parentId = restoresToFormerParent ? formerParentOf(pageId, page) : patch.parent_page_id;
    if (parentId && fitsBigint(parentId)) {
      const [parent] = await tx.query(`SELECT project_id FROM pages WHERE team_id = $1 AND id = $2`, [teamId, parentId]);
      if (parent) projects.add(parent.project_id);
    }
    return projects;
  }

  async change(patch: UpdatePageDto, caller: Caller): Promise<TreeChange> {
    if (isArchived(this.page)) {
      if (patch.archived === false) return this.unarchive(patch);
      const field = (['parent_page_id', 'position', 'project_id'] as const).find((f) => patch[f] !== undefined);
      if (field) throw PageErrors.archivedNotMovable(this.pageId, field);
      return NO_CHANGE; // archiving an archived page changes nothing
    }
    const moved = await this.move(patch);
    if (patch.archived !== true) return moved;
    return { ...moved, after: [...moved.after, [ARCHIVE_SUBTREE, [this.teamId, this.pageId, caller.userId]]], position: null };
  }

  private async move(patch: UpdatePageDto): Promise<TreeChange> {
    const here: Place = { projectId: this.page.project_id, parentId: this.page.parent_id };
    const there = (await this.destination(patch)) ?? here;
    const stays = there.projectId === here.projectId && there.parentId === here.parentId;
    if (stays && patch.position === undefined) return NO_CHANGE;
    const slot = await sortKeyAt(this.tx, this.teamId, there, this.pageId, patch.position ?? null, stays ? this.page.sort_key : null);
    if (slot === null) return NO_CHANGE; // already at that position
    return this.placeAt(there, slot, []);
  }

  /** Back into the tree: where the patch says, else under the former parent if it is active, else at the root; last unless `position`. */
  private async unarchive(patch: UpdatePageDto): Promise<TreeChange> {
    const there = (await this.destination(patch)) ?? (await this.formerPlace());
    const slot = await sortKeyAt(this.tx, this.teamId, there, this.pageId, patch.position ?? null, null);
    return this.placeAt(there, slot!, [[UNARCHIVE_SUBTREE, [this.teamId, this.pageId, this.page.archive_root_id]]]);
  }

  private placeAt(there: Place, slot: Slot, before: Statement[]): TreeChange {
    const columns: PageColumns = { parent_id: there.parentId, sort_key: slot.key };
    const after: Statement[] = [];
    if (there.projectId !== this.page.project_id) {
      columns.project_id = there.projectId;
      after.push([MOVE_SUBTREE_TO_PROJECT, [this.teamId, this.pageId, there.projectId]]);
    }
    return { before, columns, after, position: slot.position };
  }

  /** Where parent_page_id and project_id send the page; null when they leave it where it is. */
  private async destination(patch: UpdatePageDto): Promise<Place | null> {
    if (patch.project_id !== undefined && patch.project_id !== this.page.project_id) await this.requireProject(patch.project_id);
    if (patch.parent_page_id === '') return { projectId: patch.project_id ?? this.page.project_id, parentId: null };
    if (patch.parent_page_id !== undefined) {
      const projectId = await this.activeParentProject(patch.parent_page_id);
      if (patch.project_id !== undefined && patch.project_id !== projectId) throw PageErrors.parentInOtherProject(patch.parent_page_id, patch.project_id);
      return { projectId, parentId: patch.parent_page_id };
    }
    if (patch.project_id !== undefined && (patch.project_id !== this.page.project_id || isArchived(this.page))) {
      return { projectId: patch.project_id, parentId: null };
    }
    return null;
  }

  private async formerPlace(): Promise<Place> {
    const parentId = formerParentOf(this.pageId, this.page);
    const root = { projectId: this.page.project_id, parentId: null };
    if (parentId === null) return root;
    const parent = await this.parentState(parentId);
    return parent && !parent.archived ? { projectId: parent.project_id, parentId } : root;
  }

  /** The project of the parent the patch names, after checking it exists, is active and is not below the page. */
  private async activeParentProject(parentId: string): Promise<string> {
    const parent = fitsBigint(parentId) ? await this.parentState(parentId) : undefined;
    if (!parent) throw PageErrors.parentNotFound(parentId);
    if (parent.cycle) throw PageErrors.cycle(this.pageId, parentId);
    if (parent.archived) throw PageErrors.parentArchived(parentId);
    return parent.project_id;
  }

  private async parentState(parentId: string): Promise<{ project_id: string; archived: boolean; cycle: boolean } | undefined> {
    const [parent] = await this.tx.query(PARENT_STATE, [this.teamId, parentId, this.pageId]);
    // Its project was read before locking; if it moved since, we hold the wrong lock: start over.
    if (parent && !this.locked.has(parent.project_id)) throw new StaleRead();
    return parent;
  }

  private async requireProject(projectId: string): Promise<void> {
    const rows = await this.tx.query(PROJECT_EXISTS, [this.teamId, projectId]);
    if (rows.length === 0) throw PageErrors.projectNotFound(projectId);
  }
}

/** The parent an archived page had: the archive root remembers it; a page archived with it still has it. */
function formerParentOf(pageId: string, page: PageState): string | null {
  return page.archive_root_id === pageId ? page.former_parent_id : page.parent_id;
}
