import { Actor } from '../common/actor';
import { TemplateRow, toNoteTemplate } from '../notes/note-template-queries';
import { toNoteTemplateView } from '../notes/note-template.view';
import { PageRow } from '../pages/page-queries';
import { toPageView } from '../pages/page.view';
import { EventType } from './webhook-events';

/** An outbox row as the delivery worker reads it. */
export interface StoredEvent {
  team_id: string;
  type: EventType;
  actor: Actor;
  /** The write statement's row, through to_jsonb (dates as ISO text). */
  resource: Record<string, unknown>;
  /**
   * The stored values before the change (page and template updates): at least those it changed; a field
   * absent here did not change (it may hold the whole row).
   */
  previous: Record<string, unknown> | null;
  event_time: Date;
}

/** What a webhook receives: the Standard Webhooks body. */
export interface EventBody {
  type: EventType;
  timestamp: string;
  data: Record<string, unknown>;
}

/** Per-request and per-caller fields: not part of an event's resource (decisions.md, Versions). */
const PER_CALLER_PAGE_FIELDS = ['collaboration', 'bookmarked', 'is_watching', 'is_bookmarked'] as const;
/** Change with every change, so `changed` leaves them out. */
const STAMPS = new Set(['time_updated', 'user_updated', 'user_id_updated']);

/**
 * The body of an event, rendered from the row its write statement stored, with the same view
 * functions that build the write's response: the payload is the resource as of that change (not
 * as of the delivery), shaped exactly as GET shows it.
 */
export function renderEvent(event: StoredEvent, publicBaseUrl: string): EventBody {
  const base = { team_id: event.team_id, actor: event.actor };
  return {
    type: event.type,
    timestamp: event.event_time.toISOString(),
    data: { ...base, ...eventData(event, publicBaseUrl) },
  };
}

function eventData(event: StoredEvent, publicBaseUrl: string): Record<string, unknown> {
  switch (event.type) {
    case 'card.tags_added':
      return { card_id: event.resource.card_id, tag_ids: event.resource.tag_ids };
    case 'note_template.updated': {
      const now = templateView(event.resource as unknown as StoredTemplateRow);
      const before = templateView({
        ...event.resource,
        ...valuesBefore(event.previous, TEMPLATE_FIELDS),
      } as StoredTemplateRow);
      return { changed: changedFields(before, now), note_template: now };
    }
    default: {
      const now = pageView(event.resource as unknown as PageRow, publicBaseUrl);
      if (event.type !== 'page.updated') return { page: now };
      const before = pageView(previousPage(event.resource as unknown as PageRow, event.previous), publicBaseUrl);
      return { changed: changedFields(before, now), page: now };
    }
  }
}

type StoredTemplateRow = Omit<TemplateRow, 'time_created' | 'time_updated'> & {
  time_created: string;
  time_updated: string;
};

function templateView(row: StoredTemplateRow): Record<string, unknown> {
  const template = toNoteTemplate({
    ...row,
    time_created: new Date(row.time_created),
    time_updated: new Date(row.time_updated),
  });
  const { is_favourited: _perCaller, ...view } = toNoteTemplateView(template, false);
  return view;
}

/** The fields a template update may change. */
const TEMPLATE_FIELDS = ['title', 'context', 'sections', 'icon', 'ai_actions', 'is_shared'] as const;

/** Those of `fields` that `previous` holds, with their values before the change. */
function valuesBefore(previous: Record<string, unknown> | null, fields: readonly string[]): Record<string, unknown> {
  if (!previous) return {};
  return Object.fromEntries(fields.filter((field) => field in previous).map((field) => [field, previous[field]]));
}

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

/** The response fields whose value differs, in the order the response lists them; the stamps left out. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return names.filter((name) => !STAMPS.has(name) && JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}
