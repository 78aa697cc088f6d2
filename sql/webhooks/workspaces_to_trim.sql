-- workspaces_to_trim: WORKSPACES_TO_TRIM (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :retentionMs, $2 :limit
WITH
  cutoff AS MATERIALIZED (
    SELECT
      now() - :retentionMs * interval '1 millisecond' AS at
  )
SELECT
  team_id
FROM
  (
    SELECT
      d.team_id
    FROM
      webhook_deliveries d
    WHERE
      (
        d.state <> 'pending'
        AND d.time_finished < (
          SELECT
            at
          FROM
            cutoff
        )
      )
      OR NOT EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = d.team_id
          AND w.id = d.webhook_id
      )
    UNION
    SELECT
      a.team_id
    FROM
      webhook_attempts a
    WHERE
      a.time < (
        SELECT
          at
        FROM
          cutoff
      )
      OR NOT EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = a.team_id
          AND w.id = a.webhook_id
      )
    UNION
    SELECT
      s.team_id
    FROM
      webhook_streams s
    WHERE
      s.next_attempt_at IS NULL
      OR NOT EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = s.team_id
          AND w.id = s.webhook_id
      )
    UNION
    SELECT
      e.team_id
    FROM
      webhook_events e
    WHERE
      e.time_created < (
        SELECT
          at
        FROM
          cutoff
      )
      AND NOT EXISTS (
        SELECT
          1
        FROM
          webhook_deliveries d
        WHERE
          d.team_id = e.team_id
          AND d.event_id = e.id
          AND d.state = 'pending'
      )
  ) due
LIMIT
  :limit
