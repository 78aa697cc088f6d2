import { fitsBigint } from '../common/numeric-id';
import { StaleRead } from '../database/retry-on-conflict';
import type { SqlSession } from '../database/statement';
import { DomainError } from '../errors/domain-error';
import { UpdatePageDto } from './dto/update-page.dto';
import { PageErrors } from './page-errors';
import { NO_CHANGE, TreeChange } from './page-plan';
import { NeighbourKeys, PageFacts, PageFactsParams } from './page-queries';
import { Place, Slot, slotAt } from './sibling-order';

export const isStructural = (patch: UpdatePageDto) =>
  patch.parent_page_id !== undefined ||
  patch.position !== undefined ||
  patch.project_id !== undefined ||
  patch.archived !== undefined;

const isArchived = (page: PageFacts) => page.archive_root_id !== null;

/**
 * The facts a patch needs read: the parent it names (if it can exist), whether it only restores, the
 * project it names.
 */
export function factsParams(teamId: string, pageId: string, callerId: string, patch: UpdatePageDto): PageFactsParams {
  const parentId = patch.parent_page_id && fitsBigint(patch.parent_page_id) ? patch.parent_page_id : null;
  // A restore naming a project may name the page's own, which changes nothing: the former parent is read anyway.
  const restores = patch.archived === false && patch.parent_page_id === undefined;
  return { teamId, pageId, callerId, parentId, restores, projectId: patch.project_id ?? null };
}

/** What a patch does to a page, as the facts say; `there` is null when its place does not change. */
interface Resolution {
  there: Place | null;
  /** The page's key when it stays among the same siblings (a reorder), else null. */
  currentKey: string | null;
  archives: boolean;
  unarchives: boolean;
}

/**
 * Moves, reorders, archives and unarchives one page, with its subtree, as a plan the service carries
 * out. Planned inside a transaction that holds the advisory locks of the projects in `locked` and the
 * page's row lock, from facts and neighbour keys read under them.
 */
export class PageTree {
  constructor(
    private readonly pageId: string,
    private readonly page: PageFacts,
  ) {}

  /**
   * Where the patch needs the neighbour keys, as facts read before locking tell: the place it would
   * land. Null when it lands nowhere new, or when those facts already refuse the patch (read again
   * under the locks, they decide).
   */
  static keysNeededAt(pageId: string, page: PageFacts, patch: UpdatePageDto): Place | null {
    if (page.project_id === null) return null; // no such page: PAGE_PLACE finds none either
    try {
      return new PageTree(pageId, page).resolve(patch).there;
    } catch (refusal) {
      if (refusal instanceof DomainError) return null;
      throw refusal;
    }
  }

  /**
   * The change, from facts read under the locks and the keys read at `keysAt`. Any sign that the
   * facts read before locking were stale (another place, a project not locked) starts over.
   */
  async change(
    tx: SqlSession,
    teamId: string,
    patch: UpdatePageDto,
    locked: ReadonlySet<string>,
    keysAt: Place | null,
    keys: NeighbourKeys,
  ): Promise<TreeChange> {
    // Facts from a project that is not locked may be stale: start over before refusing anything on them.
    if ([this.page.project_id, this.page.parent_project_id].some((project) => project !== null && !locked.has(project)))
      throw new StaleRead();
    const resolution = this.resolve(patch);
    if ((resolution.there && !locked.has(resolution.there.projectId)) || !samePlace(resolution.there, keysAt))
      throw new StaleRead();
    const { there, currentKey, archives, unarchives } = resolution;
    const slot = there && (await slotAt(tx, teamId, this.pageId, there, keys, patch.position, currentKey));
    const moved = there && slot ? this.placeAt(there, slot) : NO_CHANGE;
    return {
      ...moved,
      archives,
      position: archives ? null : moved.position,
      unarchivedRoot: unarchives ? this.page.archive_root_id : null,
    };
  }

  private resolve(patch: UpdatePageDto): Resolution {
    const unchanged: Resolution = { there: null, currentKey: null, archives: false, unarchives: false };
    if (isArchived(this.page)) {
      // Back into the tree: where the patch says, else under the former parent if it is active, else at the root;
      // last unless `position`.
      if (patch.archived === false)
        return { ...unchanged, there: this.destination(patch) ?? this.formerPlace(), unarchives: true };
      const field = (['parent_page_id', 'position', 'project_id'] as const).find((f) => patch[f] !== undefined);
      if (field) throw PageErrors.archivedNotMovable(this.pageId, field);
      return unchanged; // archiving an archived page changes nothing
    }
    const here: Place = { projectId: this.page.project_id, parentId: this.page.parent_id };
    const there = this.destination(patch) ?? here;
    const stays = samePlace(there, here);
    const moves = !stays || patch.position !== undefined;
    return {
      there: moves ? there : null,
      currentKey: stays ? this.page.sort_key : null,
      archives: patch.archived === true,
      unarchives: false,
    };
  }

  private placeAt(there: Place, slot: Slot): TreeChange {
    return {
      ...NO_CHANGE,
      steps: slot.steps,
      place: { ...there, sortKey: slot.key },
      position: slot.position,
      carriesSubtree: there.projectId !== this.page.project_id,
    };
  }

  /** Where parent_page_id and project_id send the page; null when they leave it where it is. */
  private destination(patch: UpdatePageDto): Place | null {
    if (patch.project_id !== undefined && patch.project_id !== this.page.project_id && !this.page.project_exists)
      throw PageErrors.projectNotFound(patch.project_id);
    if (patch.parent_page_id === '') return { projectId: patch.project_id ?? this.page.project_id, parentId: null };
    if (patch.parent_page_id !== undefined) {
      const projectId = this.activeParentProject(patch.parent_page_id);
      if (patch.project_id !== undefined && patch.project_id !== projectId)
        throw PageErrors.parentInOtherProject(patch.parent_page_id, patch.project_id);
      return { projectId, parentId: patch.parent_page_id };
    }
    if (patch.project_id !== undefined && patch.project_id !== this.page.project_id) {
      return { projectId: patch.project_id, parentId: null };
    }
    return null;
  }

  /** The former parent if it is still active, else the root of the page's project. */
  private formerPlace(): Place {
    const parentId = this.page.parent_to_check;
    const { parent_project_id: projectId, parent_archived: archived } = this.page;
    return parentId !== null && projectId !== null && !archived
      ? { projectId, parentId }
      : { projectId: this.page.project_id, parentId: null };
  }

  /** The project of the parent the patch names, after checking it exists, is active and is not below the page. */
  private activeParentProject(parentId: string): string {
    const { parent_project_id: projectId, parent_cycle: cycle, parent_archived: archived } = this.page;
    if (projectId === null) throw PageErrors.parentNotFound(parentId);
    if (cycle) throw PageErrors.cycle(this.pageId, parentId);
    if (archived) throw PageErrors.parentArchived(parentId);
    return projectId;
  }
}

function samePlace(a: Place | null, b: Place | null): boolean {
  return a === b || (a !== null && b !== null && a.projectId === b.projectId && a.parentId === b.parentId);
}
