-- queue_deliveries: QUEUE_DELIVERIES (src/write-path). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :eventIds, $3 :types, $4 :resourceKeys
INSERT INTO
  webhook_deliveries (team_id, webhook_id, event_id, resource_key)
SELECT
  :teamId,
  w.id,
  e.id,
  e.resource_key
FROM
  unnest(:eventIds::BIGINT[], :types::TEXT[], :resourceKeys::TEXT[]) AS e (id, type, resource_key)
  JOIN webhooks w ON w.team_id = :teamId
  AND w.events && ARRAY[e.type, '*']
