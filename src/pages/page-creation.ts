import { Injectable } from '@nestjs/common';
import { Caller } from '../auth/caller';
import { AppConfig } from '../config/app-config';
import { Versioned } from '../safe-writes/versioned';
import { WriteConditions } from '../safe-writes/write-conditions';
import { WriteSequence } from '../write-path/write-sequence';
import { CollaborationTokens } from './collaboration-tokens';
import { CreatePageDto } from './dto/create-page.dto';
import { PageDto } from './dto/page.response';
import { placeNewPage } from './new-page-place';
import { CREATE_PAGE, CreatePageParams, LOCK_PROJECT } from './page-creation-queries';
import { NO_CHANGE } from './page-plan';
import { PageRow } from './page-queries';
import { writePageParams } from './page-write';
import { toPageView } from './page.view';
import { pageETag } from './pages.service';

/** A new page's answer: 201 with the page, its ETag and its Location. */
export function createdPage(
  teamId: string,
  caller: Caller,
  row: PageRow | undefined,
  collaboration: CollaborationTokens,
  publicBaseUrl: string,
): Versioned<PageDto> {
  if (!row?.id) throw new Error('A creation that holds its key always answers its page');
  // Issued as of the page's creation, so a replay under the request's key repeats the answer to the byte.
  const token = collaboration.issue(teamId, row.id, caller.userId, Number(row.time_created));
  return new Versioned(toPageView(row, token, publicBaseUrl), pageETag(row), `/v1/${teamId}/pages/${row.id}`);
}

/**
 * POST /pages: one new page where the body says, under its project's lock (its siblings' keys and its
 * parent hold still), with the fields the update would set and the creation's defaults.
 */
@Injectable()
export class PageCreation {
  constructor(
    private readonly config: AppConfig,
    private readonly collaboration: CollaborationTokens,
    private readonly writes: WriteSequence,
  ) {}

  create(
    caller: Caller,
    teamId: string,
    body: CreatePageDto,
    conditions: WriteConditions,
  ): Promise<Versioned<PageDto>> {
    const parentId = body.parent_page_id ? body.parent_page_id : null;
    const place = { projectId: body.project_id, parentId };
    const fields = creationFields(caller, teamId, body);
    return this.writes.run({
      conditions,
      statement: CREATE_PAGE,
      params: { ...fields, parentId, sortKey: '', position: 0 },
      alwaysLocks: true,
      lock: (tx) => tx.query(LOCK_PROJECT, { teamId, projectId: body.project_id }),
      change: async (tx, locked) => {
        const request = { projectId: body.project_id, parentId, place, position: body.position };
        // No lock row: the project did not exist then (placeNewPage refuses it, or starts over if it does now).
        const held = new Set(locked.length > 0 ? [body.project_id] : []);
        const { slot } = await placeNewPage(tx, teamId, request, held);
        for (const step of slot.steps) await step.run(tx);
        return { ...fields, parentId, sortKey: slot.key, position: slot.position };
      },
      answer: (row) => createdPage(teamId, caller, row, this.collaboration, this.config.publicPagesBaseUrl),
    });
  }
}

/** CREATE_PAGE's fields: the update's normalisation of the fields they share, and the creation's defaults. */
function creationFields(
  caller: Caller,
  teamId: string,
  body: CreatePageDto,
): Omit<CreatePageParams, 'parentId' | 'sortKey' | 'position'> {
  const update = writePageParams(caller, teamId, '-1', body, NO_CHANGE, '');
  return {
    teamId,
    callerId: caller.userId,
    actor: update.actor,
    projectId: body.project_id,
    title: update.title ?? '',
    content: body.content ?? '',
    schema: body.schema ?? 1,
    font: update.font ?? 'sans',
    icon: update.icon,
    cover: update.cover,
    isPublic: update.isPublic ?? false,
    publicUrl: update.publicUrl,
    robots: update.robots ?? [],
    hideTableOfContents: update.hideTableOfContents ?? false,
    hideSubpages: update.hideSubpages ?? false,
  };
}
