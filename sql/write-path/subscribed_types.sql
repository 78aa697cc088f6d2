-- subscribed_types: SUBSCRIBED_TYPES (src/write-path). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId
SELECT
  COALESCE(array_agg(DISTINCT t.type), '{}') AS types
FROM
  webhooks w,
  unnest(w.events) t (type)
WHERE
  w.team_id = :teamId
