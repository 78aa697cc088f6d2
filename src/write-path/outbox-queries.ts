import { statement } from '../database/statement';

/** Who wrote, and the span the write ran in (the W3C traceparent, null without traces). */
interface EventSource {
  teamId: string;
  actor: string;
  traceParent: string | null;
}

/**
 * The event types the workspace's webhooks subscribe to (`*` for every type), read with the write's first
 * statement: a write with no event subscribed queues no delivery and waits for no event id.
 */
export const SUBSCRIBED_TYPES = statement<{ teamId: string }, { types: string[] }>(
  'subscribed_types',
  `SELECT COALESCE(array_agg(DISTINCT t.type), '{}') AS types
     FROM webhooks w, unnest(w.events) t(type)
    WHERE w.team_id = :teamId`,
);

/** A stored event's id and what its deliveries need of it. */
export interface RecordedEventRow {
  id: string;
  type: string;
  resource_key: string;
}

/**
 * Stores a write's events (a JSON array of ChangeEvent), in their order, each with the next id of the
 * sequence: drawn here, after the change, while the write holds its resource's row, so a resource's events
 * are numbered in the order of its changes.
 */
export const RECORD_EVENTS = statement<EventSource & { events: string }, RecordedEventRow>(
  'record_events',
  `INSERT INTO webhook_events (team_id, id, type, resource_type, resource_id, actor, resource, previous, trace_parent)
   SELECT :teamId, nextval('webhook_events_id_seq'), e.type, e.resource_type, e.resource_id, :actor::jsonb,
          e.resource, e.previous, :traceParent::text
     FROM jsonb_to_recordset(:events::jsonb) AS e(type text, resource_type text, resource_id text, resource jsonb,
                                                  previous jsonb)
   RETURNING id::text, type, resource_type || ':' || resource_id AS resource_key`,
);

/** Recorded events, as parallel arrays. */
interface RecordedEvents {
  teamId: string;
  eventIds: string[];
  types: string[];
  resourceKeys: string[];
}

/** The recorded events joined with the webhooks that subscribe to each, from `e` and `w`. */
const SUBSCRIBERS = `
  unnest(:eventIds::bigint[], :types::text[], :resourceKeys::text[]) AS e(id, type, resource_key)
  JOIN webhooks w ON w.team_id = :teamId AND w.events && ARRAY[e.type, '*']`;

/** One delivery of each recorded event per webhook that subscribes to its type. */
export const QUEUE_DELIVERIES = statement<RecordedEvents>(
  'queue_deliveries',
  `INSERT INTO webhook_deliveries (team_id, webhook_id, event_id, resource_key)
   SELECT :teamId, w.id, e.id, e.resource_key FROM ${SUBSCRIBERS}`,
);

/**
 * Each delivery joins the stream of its webhook and resource (webhook_streams): due now if idle; a stream in
 * flight or waiting for a retry stays as it is, its last event updated on the row a finishing delivery locks,
 * so that one sees this one queued. The streams are locked in key order.
 */
export const STREAM_DELIVERIES = statement<RecordedEvents>(
  'stream_deliveries',
  `INSERT INTO webhook_streams AS s (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
   SELECT :teamId, w.id, e.resource_key, now(), max(e.id) FROM ${SUBSCRIBERS}
    GROUP BY w.id, e.resource_key
    ORDER BY w.id, e.resource_key
   ON CONFLICT (team_id, webhook_id, resource_key)
   DO UPDATE SET next_attempt_at = COALESCE(s.next_attempt_at, excluded.next_attempt_at),
                 last_event_id = GREATEST(s.last_event_id, excluded.last_event_id)`,
);
