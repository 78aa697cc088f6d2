-- webhook_backlog: WEBHOOK_BACKLOG (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: none
SELECT
  count(*)::int AS pending,
  (
    extract(
      epoch
      FROM
        now() - min(time_created)
    ) * 1000
  )::float8 AS oldest_ms
FROM
  webhook_deliveries
WHERE
  state = 'pending'
