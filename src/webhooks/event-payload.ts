import { Actor } from '../common/actor';
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

/** What a renderer may need besides the event. */
export interface RenderContext {
  publicBaseUrl: string;
}

/** A renderer for each of the types `T`, each given only events of its own type. */
export type RenderersFor<T extends string> = {
  [K in T]: (event: StoredEvent & { type: K }, context: RenderContext) => Record<string, unknown>;
};

/**
 * The renderer of every event type: each feature renders its own types (pages/page-events.ts, ...), and
 * the app composes them (src/event-renderers.ts), so a new event type without a renderer does not compile.
 */
export type EventRenderers = RenderersFor<EventType>;

/** The DI token of the app's EventRenderers, which the delivery worker renders with. */
export const EVENT_RENDERERS = Symbol('EVENT_RENDERERS');

/** Change with every change, so `changed` leaves them out. */
const STAMPS = new Set(['time_updated', 'user_updated', 'user_id_updated']);

/**
 * The body of an event, rendered from the row its write statement stored, with the same view
 * functions that build the write's response: the payload is the resource as of that change (not
 * as of the delivery), shaped exactly as GET shows it.
 */
export function renderEvent(event: StoredEvent, renderers: EventRenderers, publicBaseUrl: string): EventBody {
  // The renderer of event.type takes this event; TypeScript cannot tie the two through the union.
  const render = renderers[event.type] as
    ((event: StoredEvent, context: RenderContext) => Record<string, unknown>) | undefined;
  if (!render) throw new Error(`No renderer for event type ${event.type}`);
  const base = { team_id: event.team_id, actor: event.actor };
  return {
    type: event.type,
    timestamp: event.event_time.toISOString(),
    data: { ...base, ...render(event, { publicBaseUrl }) },
  };
}

/** Those of `fields` that `previous` holds, with their values before the change. */
export function valuesBefore(
  previous: Record<string, unknown> | null,
  fields: readonly string[],
): Record<string, unknown> {
  if (!previous) return {};
  return Object.fromEntries(fields.filter((field) => field in previous).map((field) => [field, previous[field]]));
}

/** The response fields whose value differs, in the order the response lists them; the stamps left out. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const names = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return names.filter((name) => !STAMPS.has(name) && JSON.stringify(before[name]) !== JSON.stringify(after[name]));
}
