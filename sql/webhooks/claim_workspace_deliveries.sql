-- claim_workspace_deliveries: CLAIM_WORKSPACE_DELIVERIES (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :webhookId, $3 :limit
WITH
  chosen AS MATERIALIZED (
    SELECT
      w.team_id,
      w.id,
      w.url,
      w.secret
    FROM
      webhooks w
    WHERE
      w.team_id = :teamId
      AND w.id = :webhookId
      AND pg_try_advisory_xact_lock(hashtextextended (w.team_id || ':webhook:' || w.id, 0))
  )
SELECT
  d.ctid::text AS ref,
  d.team_id,
  d.webhook_id::text,
  d.event_id::text,
  d.resource_key,
  d.attempts,
  c.url,
  c.secret,
  e.type,
  e.actor,
  e.resource,
  e.previous,
  e.time_created AS event_time,
  e.trace_parent
FROM
  chosen c
  CROSS JOIN LATERAL (
    SELECT
      h.head
    FROM
      webhook_streams s
      CROSS JOIN LATERAL (
        SELECT
          h.ctid AS head
        FROM
          webhook_deliveries h
        WHERE
          h.team_id = :teamId
          AND h.webhook_id = s.webhook_id
          AND h.resource_key = s.resource_key
          AND h.state = 'pending'
        ORDER BY
          h.event_id
        LIMIT
          1
      ) h
    WHERE
      s.team_id = :teamId
      AND s.webhook_id = c.id
      AND s.next_attempt_at <= now()
    ORDER BY
      s.next_attempt_at
    LIMIT
      :limit
  ) s
  JOIN webhook_deliveries d ON d.team_id = :teamId
  AND d.ctid = s.head
  CROSS JOIN LATERAL (
    SELECT
      e.type,
      e.actor,
      e.resource,
      e.previous,
      e.time_created,
      e.trace_parent
    FROM
      webhook_events e
    WHERE
      e.team_id = :teamId
      AND e.id = d.event_id
    LIMIT
      1
  ) e
WHERE
  d.state = 'pending'
FOR UPDATE OF
  d SKIP LOCKED
