/** What the outbox's CTEs take besides the write's own parameters. */
export interface OutboxParams {
  /** The W3C traceparent of the request's span, kept with the event for its delivery's span; null without traces. */
  traceParent: string | null;
}

/**
 * The transactional outbox, as the CTEs a write statement's announcing forms add to themselves
 * (write-statement.ts): `events` is a query of the statement's events (type, resource_type, resource_id,
 * actor, resource, previous), with none when the statement changed nothing. The
 * event is stored, and one delivery queued per webhook of workspace :teamId that subscribes to its
 * type, by the same statement as the change: committed together or not at all. Without a subscribed
 * webhook in the workspace nothing is inserted (one probe of the webhooks key decides; the types
 * subscribed to are read apart from the event, as Citus plans no subquery that reads both). An event's
 * id, which orders a resource's events, is drawn by a CTE that reads no table (`event_ids`), rather than
 * by the column's default: Citus draws a default on the node that runs the INSERT, sometimes a worker,
 * and ids drawn on two nodes do not follow one another; a CTE that reads no table it runs on the
 * coordinator. Each delivery joins the stream of its webhook and resource (webhook_streams): due now if
 * idle; a stream in flight or waiting for a retry stays as it is, its last event updated on the row a
 * finishing delivery locks, so that one sees this one queued. The streams are locked in key order.
 */
export const ANNOUNCE = (events: string) => `
  event_rows AS MATERIALIZED (
    SELECT e.* FROM (${events}) e
     WHERE ARRAY[e.type, '*'] && ARRAY(SELECT unnest(w.events) FROM webhooks w WHERE w.team_id = :teamId)
  ),
  event_ids AS MATERIALIZED (SELECT r.*, nextval('webhook_events_id_seq') AS id FROM event_rows r),
  announced AS (
    INSERT INTO webhook_events (team_id, id, type, resource_type, resource_id, actor, resource, previous, trace_parent)
    SELECT :teamId, e.id, e.type, e.resource_type, e.resource_id, e.actor, e.resource, e.previous, :traceParent::text
      FROM event_ids e
    RETURNING team_id, id, type, resource_type, resource_id
  ), fanned_out AS (
    INSERT INTO webhook_deliveries (team_id, webhook_id, event_id, resource_key)
    SELECT a.team_id, w.id, a.id, a.resource_type || ':' || a.resource_id
      FROM announced a JOIN webhooks w ON w.team_id = :teamId AND w.events && ARRAY[a.type, '*']
    RETURNING team_id, webhook_id, event_id, resource_key
  ), streamed AS (
    INSERT INTO webhook_streams AS s (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
    SELECT team_id, webhook_id, resource_key, now(), event_id FROM fanned_out ORDER BY webhook_id
    ON CONFLICT (team_id, webhook_id, resource_key)
    DO UPDATE SET next_attempt_at = COALESCE(s.next_attempt_at, excluded.next_attempt_at),
                  last_event_id = GREATEST(s.last_event_id, excluded.last_event_id)
  )`;

/**
 * An event's `previous`: the stored values of row `before` (jsonb) that differ in row `after` (a query
 * of one jsonb row), and only those, from which the worker works out `changed` (event-payload.ts).
 */
export const PREVIOUS_VALUES = (before: string, after: string) => `
  (SELECT COALESCE(jsonb_object_agg(b.key, b.value), '{}') FROM jsonb_each(${before}) b
    WHERE b.value IS DISTINCT FROM (${after}) -> b.key)`;

/** Whether workspace :teamId has a webhook. */
export const SUBSCRIBED = `EXISTS (SELECT 1 FROM webhooks w WHERE w.team_id = :teamId)`;
