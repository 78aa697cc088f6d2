-- claim_webhook_deliveries: CLAIM_DELIVERIES (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :busyWebhookIds, $2 :limit
WITH
  due AS (
    SELECT
      w.team_id,
      w.id,
      w.url,
      w.secret
    FROM
      webhooks w
      CROSS JOIN LATERAL (
        SELECT
          s.next_attempt_at
        FROM
          webhook_streams s
          CROSS JOIN LATERAL (
            SELECT
              h.ctid AS head
            FROM
              webhook_deliveries h
            WHERE
              h.team_id = s.team_id
              AND h.webhook_id = s.webhook_id
              AND h.resource_key = s.resource_key
              AND h.state = 'pending'
            ORDER BY
              h.event_id
            LIMIT
              1
          ) h
        WHERE
          s.team_id = w.team_id
          AND s.webhook_id = w.id
          AND s.next_attempt_at <= now()
        ORDER BY
          s.next_attempt_at
        LIMIT
          1
      ) first
    WHERE
      w.id <> ALL (:busyWebhookIds::BIGINT[])
    ORDER BY
      first.next_attempt_at
    OFFSET
      0
  ),
  chosen AS MATERIALIZED (
    SELECT
      c.*,
      EXISTS (
        SELECT
        FROM
          due o
        WHERE
          o.id <> c.id
      ) AS others_due
    FROM
      due c
    WHERE
      pg_try_advisory_xact_lock(hashtextextended (c.team_id || ':webhook:' || c.id, 0))
    LIMIT
      1
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
  e.trace_parent,
  c.others_due
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
          h.team_id = s.team_id
          AND h.webhook_id = s.webhook_id
          AND h.resource_key = s.resource_key
          AND h.state = 'pending'
        ORDER BY
          h.event_id
        LIMIT
          1
      ) h
    WHERE
      s.team_id = c.team_id
      AND s.webhook_id = c.id
      AND s.next_attempt_at <= now()
    ORDER BY
      s.next_attempt_at
    LIMIT
      :limit
  ) s
  JOIN webhook_deliveries d ON d.ctid = s.head
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
      e.team_id = d.team_id
      AND e.id = d.event_id
    LIMIT
      1
  ) e
WHERE
  d.state = 'pending'
FOR UPDATE OF
  d SKIP LOCKED
