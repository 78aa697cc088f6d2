-- due_webhooks: DUE_WEBHOOKS (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :busyWebhookIds, $2 :limit
SELECT
  w.team_id,
  w.id::text AS webhook_id
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
LIMIT
  :limit
