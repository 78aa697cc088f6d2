-- list_webhook_attempts: LIST_ATTEMPTS (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :webhookId, $3 :limit
SELECT
  a.event_id::text AS id,
  a.type,
  a.attempt,
  a.status,
  floor(
    extract(
      epoch
      FROM
        a.time
    ) * 1000
  )::bigint::float8 AS time,
  floor(
    extract(
      epoch
      FROM
        a.next_attempt_at
    ) * 1000
  )::bigint::float8 AS next_attempt,
  a.outcome
FROM
  webhook_attempts a
WHERE
  a.team_id = :teamId
  AND a.webhook_id = :webhookId
ORDER BY
  a.time DESC,
  a.event_id DESC,
  a.attempt DESC
LIMIT
  :limit
