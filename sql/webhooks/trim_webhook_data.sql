-- trim_webhook_data: TRIM_WEBHOOK_DATA (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :retentionMs, $2 :teamId
WITH
  cutoff AS MATERIALIZED (
    SELECT
      now() - :retentionMs * interval '1 millisecond' AS at
  ),
  deliveries AS (
    DELETE FROM webhook_deliveries d
    WHERE
      d.team_id = :teamId
      AND (d.team_id, d.webhook_id, d.event_id) IN (
        SELECT
          x.team_id,
          x.webhook_id,
          x.event_id
        FROM
          webhook_deliveries x
        WHERE
          x.team_id = :teamId
          AND (
            (
              x.state <> 'pending'
              AND x.time_finished < (
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
                w.team_id = :teamId
                AND w.id = x.webhook_id
            )
          )
        LIMIT
          10000
        FOR UPDATE
          SKIP LOCKED
      )
    RETURNING
      1
  ),
  attempts AS (
    DELETE FROM webhook_attempts a
    WHERE
      a.team_id = :teamId
      AND (
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
            w.team_id = :teamId
            AND w.id = a.webhook_id
        )
      )
    RETURNING
      1
  ),
  streams AS (
    DELETE FROM webhook_streams s
    WHERE
      s.team_id = :teamId
      AND (s.team_id, s.webhook_id, s.resource_key) IN (
        SELECT
          x.team_id,
          x.webhook_id,
          x.resource_key
        FROM
          webhook_streams x
        WHERE
          x.team_id = :teamId
          AND (
            x.next_attempt_at IS NULL
            OR NOT EXISTS (
              SELECT
                1
              FROM
                webhooks w
              WHERE
                w.team_id = :teamId
                AND w.id = x.webhook_id
            )
          )
        FOR UPDATE
          SKIP LOCKED
      )
  ),
  events AS (
    DELETE FROM webhook_events e
    WHERE
      e.team_id = :teamId
      AND e.time_created < (
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
          d.team_id = :teamId
          AND d.event_id = e.id
          AND d.state = 'pending'
      )
    RETURNING
      1
  )
SELECT
  (
    SELECT
      count(*)
    FROM
      deliveries
  )::int AS deliveries,
  (
    SELECT
      count(*)
    FROM
      attempts
  )::int AS attempts,
  (
    SELECT
      count(*)
    FROM
      events
  )::int AS events
