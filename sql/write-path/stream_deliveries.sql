-- stream_deliveries: STREAM_DELIVERIES (src/write-path). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :eventIds, $3 :types, $4 :resourceKeys
INSERT INTO
  webhook_streams AS s (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
SELECT
  :teamId,
  w.id,
  e.resource_key,
  now(),
  max(e.id)
FROM
  unnest(:eventIds::BIGINT[], :types::TEXT[], :resourceKeys::TEXT[]) AS e (id, type, resource_key)
  JOIN webhooks w ON w.team_id = :teamId
  AND w.events && ARRAY[e.type, '*']
GROUP BY
  w.id,
  e.resource_key
ORDER BY
  w.id,
  e.resource_key
ON CONFLICT (team_id, webhook_id, resource_key) DO UPDATE
SET
  next_attempt_at = COALESCE(s.next_attempt_at, excluded.next_attempt_at),
  last_event_id = GREATEST(s.last_event_id, excluded.last_event_id)
