import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { fitsBigint } from '../common/numeric-id';
import { WriteConditions } from '../safe-writes/write-conditions';
import { WriteSequence } from '../write-path/write-sequence';
import { DELETE_PAGE, LOCK_SUBTREE_PROJECTS } from './page-deletion-queries';
import { PageErrors } from './page-errors';
import { LOCK_READ_PAGE } from './page-queries';
import { pageETag } from './pages.service';

/**
 * DELETE /pages/{id}: the page and its whole subtree, for good, under the locks of every project the
 * subtree lies in (so no move lands in it meanwhile) and the page's row lock (If-Match: the page's ETag).
 */
@Injectable()
export class PageDeletion {
  constructor(private readonly writes: WriteSequence) {}

  async delete(caller: Caller, teamId: string, pageId: string, conditions: WriteConditions): Promise<void> {
    if (!fitsBigint(pageId)) throw PageErrors.notFound(pageId);
    const params = { teamId, callerId: caller.userId, actor: JSON.stringify(caller.actor), pageId };
    await this.writes.run({
      conditions,
      statement: DELETE_PAGE,
      params: { ...params, lockedProjects: [] },
      alwaysLocks: true,
      // No page, no project locked: ids are never reused, so a page absent now never appears.
      lock: async (tx) => {
        const [{ locked_projects: lockedProjects }] = await tx.query(LOCK_SUBTREE_PROJECTS, { teamId, pageId });
        if (lockedProjects.length === 0) throw PageErrors.notFound(pageId);
        return lockedProjects;
      },
      // Read only for If-Match; DELETE_PAGE locks the row itself.
      etag: async (tx) => {
        const [page] = await tx.query(LOCK_READ_PAGE, { teamId, pageId, callerId: caller.userId });
        if (!page) throw PageErrors.notFound(pageId);
        return pageETag(page);
      },
      change: (_tx, lockedProjects) => Promise.resolve({ ...params, lockedProjects }),
      stale: (row) => row.stale,
      // A delete that committed first, between the locks and the row: nothing left to delete.
      answer: (row) => {
        if (row && row.deleted_page_ids.length === 0) throw PageErrors.notFound(pageId);
      },
    });
  }
}
