import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { AppConfig } from '../config/app-config';
import { StaleRead } from '../database/retry-on-conflict';
import type { SqlSession } from '../database/statement';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { WriteSequence } from '../write-path/write-sequence';
import { CollaborationTokens } from './collaboration-tokens';
import { COPY_PAGES_MAX, CopyPageDto } from './dto/copy-page.dto';
import { PageDto } from './dto/page.response';
import { NewPageRequest, placeNewPage } from './new-page-place';
import { COPY_PAGES, CopyPagesParams, SUBTREE_TO_COPY } from './page-copy-queries';
import { createdPage } from './page-creation';
import { PageErrors } from './page-errors';
import { LOCK_PAGE_PROJECTS, LOCK_READ_PAGE, PageFacts, PageRow } from './page-queries';
import { factsParams } from './page-tree';
import { pageETag } from './pages.service';

/** The original, locked, and what was read of the request's parent before the locks. */
interface LockedOriginal {
  seen: PageFacts & { locked_projects: string[] };
  original: PageRow;
}

/**
 * POST /pages/{id}/copy: a copy of an active page (with its active subpages when `recursive`), under
 * the locks of the original's project, the project named and the parent's, and the original's row lock
 * (If-Match is compared with the original's ETag).
 */
@Injectable()
export class PageCopy {
  constructor(
    private readonly config: AppConfig,
    private readonly collaboration: CollaborationTokens,
    private readonly writes: WriteSequence,
  ) {}

  copy(
    caller: Caller,
    teamId: string,
    pageId: string,
    body: CopyPageDto,
    conditions: WriteConditions,
  ): Promise<Versioned<PageDto>> {
    if (!fitsBigint(pageId)) throw PageErrors.notFound(pageId);
    const key = { teamId, pageId, callerId: caller.userId };
    const base: CopyPagesParams = {
      teamId,
      callerId: caller.userId,
      actor: JSON.stringify(caller.actor),
      sourceIds: [],
      parentOrdinals: [],
      projectId: '',
      parentId: null,
      sortKey: '',
      position: 0,
      title: body.title ?? null,
    };
    return this.writes.run({
      conditions,
      statement: COPY_PAGES,
      params: base,
      alwaysLocks: true,
      lock: async (tx): Promise<LockedOriginal> => {
        const [seen] = await tx.query(LOCK_PAGE_PROJECTS, factsParams(teamId, pageId, caller.userId, body));
        const [original] = await tx.query(LOCK_READ_PAGE, key);
        if (!original) throw PageErrors.notFound(pageId);
        if (!seen.locked_projects.includes(original.project_id)) throw new StaleRead();
        return { seen, original };
      },
      etag: (_tx, { original }) => pageETag(original),
      change: async (tx, locked) => {
        if (locked.original.archived_by !== null) throw PageErrors.archivedNotCopyable(pageId);
        const request = destination(locked, body);
        const { place, slot } = await placeNewPage(tx, teamId, request, new Set(locked.seen.locked_projects));
        const pages = body.recursive ? await subtree(tx, teamId, pageId) : { ids: [pageId], parents: [0] };
        for (const step of slot.steps) await step.run(tx);
        return {
          ...base,
          sourceIds: pages.ids,
          parentOrdinals: pages.parents,
          projectId: place.projectId,
          parentId: place.parentId,
          sortKey: slot.key,
          position: slot.position,
        };
      },
      answer: (row) => createdPage(teamId, caller, row, this.collaboration, this.config.publicPagesBaseUrl),
    });
  }
}

/**
 * Where the copy goes: under the parent named (its project as read before the locks), at the root of
 * the project named, or beside the original, right after it unless `position` says otherwise.
 */
function destination({ seen, original }: LockedOriginal, body: CopyPageDto): NewPageRequest {
  const parentId = body.parent_page_id ? body.parent_page_id : null;
  const projectId = body.project_id ?? null;
  if (parentId !== null)
    return {
      projectId,
      parentId,
      place: { projectId: seen.parent_project_id ?? original.project_id, parentId },
      position: body.position,
    };
  if (body.parent_page_id === '' || (projectId !== null && projectId !== original.project_id))
    return {
      projectId,
      parentId: null,
      place: { projectId: projectId ?? original.project_id, parentId: null },
      position: body.position,
    };
  return {
    projectId,
    parentId: null,
    place: { projectId: original.project_id, parentId: original.parent_id },
    position: body.position ?? (original.position ?? 0) + 1,
  };
}

/** The active subtree to copy, in tree order; more than COPY_PAGES_MAX pages is a 400. */
async function subtree(tx: SqlSession, teamId: string, pageId: string): Promise<{ ids: string[]; parents: number[] }> {
  const rows = await tx.query(SUBTREE_TO_COPY, { teamId, pageId, max: COPY_PAGES_MAX });
  if (rows.length > COPY_PAGES_MAX) throw PageErrors.copyTooLarge(pageId, COPY_PAGES_MAX);
  return { ids: rows.map((row) => row.id), parents: rows.map((row) => row.parent_ordinal) };
}
