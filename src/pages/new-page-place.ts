import { fitsBigint } from '../common/numeric-id';
import { StaleRead } from '../database/retry-on-conflict';
import type { SqlSession } from '../database/statement';
import { NEW_PAGE_PLACE } from './page-creation-queries';
import { PageErrors } from './page-errors';
import { indexOf, parentKeyOf, Place, Slot, slotAt } from './sibling-order';

/** What a request says of where a new page goes, and where that is as read before the projects' locks. */
export interface NewPageRequest {
  /** The project the request names (null: none). */
  projectId: string | null;
  /** The parent the request names (null: none, or the root). */
  parentId: string | null;
  /** The place it goes to, as read before locking: the parent's project comes from that read. */
  place: Place;
  /** The index there (undefined: last). */
  position: number | undefined;
}

/**
 * Where a new page lands, read under the locks of the projects in `locked`: refuses an unknown project
 * (404), an unknown parent (404), an archived one (400) or one of another project than the one named
 * (400); starts over when the place's project was not locked or the parent moved meanwhile.
 */
export async function placeNewPage(
  tx: SqlSession,
  teamId: string,
  request: NewPageRequest,
  locked: ReadonlySet<string>,
): Promise<{ place: Place; slot: Slot }> {
  const { projectId, parentId, place, position } = request;
  // A parent id past bigint names no page: nothing to read there.
  const readable = parentId === null || fitsBigint(parentId);
  const [facts] = await tx.query(NEW_PAGE_PLACE, {
    teamId,
    projectId,
    parentId: readable ? parentId : null,
    keysProjectId: readable ? place.projectId : null,
    keysParentKey: readable ? parentKeyOf(place) : '-1',
    keysIndex: indexOf(position),
  });
  if (projectId !== null && !facts.project_exists) throw PageErrors.projectNotFound(projectId);
  if (parentId !== null) {
    if (facts.parent_project_id === null) throw PageErrors.parentNotFound(parentId);
    if (facts.parent_archived) throw PageErrors.parentArchived(parentId);
    if (projectId !== null && facts.parent_project_id !== projectId)
      throw PageErrors.parentInOtherProject(parentId, projectId);
    if (facts.parent_project_id !== place.projectId) throw new StaleRead();
  }
  if (!locked.has(place.projectId)) throw new StaleRead();
  // No page of these siblings is the new one: -1 names none.
  const slot = await slotAt(tx, teamId, '-1', place, facts, position, null);
  if (!slot) throw new Error('A new page always gets a slot'); // currentKey null: slotAt never answers null
  return { place, slot };
}
