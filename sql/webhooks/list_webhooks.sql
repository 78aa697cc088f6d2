-- list_webhooks: LIST_WEBHOOKS (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId
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
ORDER BY
  w.id
