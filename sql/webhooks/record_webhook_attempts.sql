-- record_webhook_attempts: RECORD_ATTEMPTS (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :retryWindowMs, $2 :eventIds, $3 :attempts, $4 :succeeded, $5 :statuses, $6 :retryDelaysMs, $7 :types, $8 :refs, $9 :eventTimes, $10 :teamId, $11 :webhookId, $12 :resourceKeys
WITH
  decided AS MATERIALIZED (
    SELECT
      a.*,
      CASE
        WHEN a.succeeded THEN 'delivered'
        WHEN now() + a.delay_ms * interval '1 millisecond' > a.event_time + :retryWindowMs * interval '1 millisecond' THEN 'given_up'
        ELSE 'retrying'
      END AS outcome,
      now() + a.delay_ms * interval '1 millisecond' AS next_at,
      now() AS now
    FROM
      unnest(
        :eventIds::BIGINT[],
        :attempts::INT[],
        :succeeded::BOOLEAN[],
        :statuses::INT[],
        :retryDelaysMs::float8[],
        :types::TEXT[],
        :refs::tid[],
        :eventTimes::TIMESTAMPTZ[]
      ) AS a (event_id, attempt, succeeded, status, delay_ms, type, ref, event_time)
  ),
  updated AS (
    UPDATE webhook_deliveries d
    SET
      attempts = o.attempt,
      state = CASE
        WHEN o.outcome = 'retrying' THEN 'pending'
        ELSE o.outcome
      END,
      next_attempt_at = CASE
        WHEN o.outcome = 'retrying' THEN o.next_at
        ELSE d.next_attempt_at
      END,
      time_finished = CASE
        WHEN o.outcome = 'retrying' THEN NULL
        ELSE o.now
      END
    FROM
      decided o
    WHERE
      d.ctid = ANY (:refs::tid[])
      AND d.ctid = o.ref
      AND d.event_id = o.event_id
      AND d.team_id = :teamId
      AND d.webhook_id = :webhookId
    RETURNING
      d.resource_key,
      d.event_id,
      o.outcome,
      o.next_at,
      o.now
  ),
  stream AS (
    UPDATE webhook_streams s
    SET
      next_attempt_at = CASE
        WHEN u.outcome = 'retrying' THEN u.next_at
        WHEN s.last_event_id = u.event_id THEN NULL
        ELSE u.now
      END
    FROM
      updated u
    WHERE
      s.team_id = :teamId
      AND s.webhook_id = :webhookId
      AND s.resource_key = ANY (:resourceKeys::TEXT[])
      AND s.resource_key = u.resource_key
  )
INSERT INTO
  webhook_attempts (team_id, webhook_id, event_id, type, attempt, status, outcome, next_attempt_at)
SELECT
  :teamId,
  :webhookId,
  o.event_id,
  o.type,
  o.attempt,
  o.status,
  o.outcome,
  CASE
    WHEN o.outcome = 'retrying' THEN o.next_at
  END
FROM
  decided o
RETURNING
  event_id::text,
  outcome
