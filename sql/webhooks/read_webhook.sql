-- read_webhook: READ_WEBHOOK (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :webhookId
SELECT
  w.id::text,
  w.url,
  w.events,
  w.description,
  floor(
    extract(
      epoch
      FROM
        w.time_created
    ) * 1000
  )::bigint::float8 AS time_created,
  w.created_by AS "user"
FROM
  webhooks w
WHERE
  w.team_id = :teamId
  AND w.id = :webhookId
