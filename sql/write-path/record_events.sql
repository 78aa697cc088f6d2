-- record_events: RECORD_EVENTS (src/write-path). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :actor, $3 :traceParent, $4 :events
INSERT INTO
  webhook_events (
    team_id,
    id,
    type,
    resource_type,
    resource_id,
    actor,
    resource,
    previous,
    trace_parent
  )
SELECT
  :teamId,
  nextval('webhook_events_id_seq'),
  e.type,
  e.resource_type,
  e.resource_id,
  :actor::jsonb,
  e.resource,
  e.previous,
  :traceParent::text
FROM
  jsonb_to_recordset(:events::jsonb) AS e (type text, resource_type text, resource_id text, resource jsonb, previous jsonb)
RETURNING
  id::text,
  type,
  resource_type || ':' || resource_id AS resource_key
