import { changedFields, EventRenderers, RenderContext, StoredEvent, valuesBefore } from '../webhooks/event-payload';
import { PageRow } from './page-queries';
import { toPageView } from './page.view';

/** Per-request and per-caller fields: not part of an event's resource (decisions.md, Versions). */
const PER_CALLER_PAGE_FIELDS = ['collaboration', 'bookmarked', 'is_watching', 'is_bookmarked'] as const;

function pageView(row: PageRow, publicBaseUrl: string): Record<string, unknown> {
  const view: Record<string, unknown> = { ...toPageView(row, '', publicBaseUrl) };
  for (const field of PER_CALLER_PAGE_FIELDS) delete view[field];
  return view;
}

/** The stored fields of a page that an update may change, its place aside. */
const PAGE_FIELDS = [
  'title',
  'font',
  'icon',
  'cover_image',
  'is_public',
  'public_url',
  'public_robots',
  'hide_table_of_contents',
  'hide_subpages',
  'project_id',
] as const;

/** The page as it was: the new row with the stored fields the update changed put back. */
function previousPage(now: PageRow, previous: Record<string, unknown> | null): PageRow {
  if (!previous) return now;
  const parent = previous.parent_id as number | string | null | undefined;
  return {
    ...now,
    ...(valuesBefore(previous, PAGE_FIELDS) as Partial<PageRow>),
    // A move knows the old rank; other updates leave it where it was.
    ...(previous.position === null || previous.position === undefined ? {} : { position: previous.position as number }),
    ...(now.archived_by === null && 'parent_id' in previous
      ? { parent_id: parent === null || parent === undefined ? null : String(parent) }
      : {}),
  };
}

/** An archive or unarchive: the page as it is now. */
const renderPage = (event: StoredEvent, { publicBaseUrl }: RenderContext) => ({
  page: pageView(event.resource as unknown as PageRow, publicBaseUrl),
});

/** The bodies of the page events, for the app's EventRenderers (src/event-renderers.ts). */
export const PAGE_EVENT_RENDERERS = {
  'page.updated': (event, { publicBaseUrl }) => {
    const now = pageView(event.resource as unknown as PageRow, publicBaseUrl);
    const before = pageView(previousPage(event.resource as unknown as PageRow, event.previous), publicBaseUrl);
    return { changed: changedFields(before, now), page: now };
  },
  'page.archived': renderPage,
  'page.unarchived': renderPage,
  // A copy's resource carries the id of the page it copies.
  'page.created': (event, context) => {
    const { copied_from: copiedFrom } = event.resource as { copied_from?: string };
    return { ...renderPage(event, context), ...(copiedFrom === undefined ? {} : { copied_from: copiedFrom }) };
  },
  'page.deleted': (event) => {
    const { page_id: pageId, deleted_page_ids: deletedPageIds } = event.resource as {
      page_id: string;
      deleted_page_ids: string[];
    };
    return { page_id: pageId, deleted_page_ids: deletedPageIds };
  },
} satisfies Pick<
  EventRenderers,
  'page.updated' | 'page.archived' | 'page.unarchived' | 'page.created' | 'page.deleted'
>;
