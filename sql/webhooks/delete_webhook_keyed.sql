-- delete_webhook_keyed: DELETE_WEBHOOK.keyed (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :webhookId, $3 :callerId, $4 :idempotencyKey, $5 :keyClaim
WITH
  target AS MATERIALIZED (
    SELECT
      w.id
    FROM
      webhooks w
    WHERE
      w.team_id = :teamId
      AND w.id = :webhookId
    FOR UPDATE
  ),
  key_held AS MATERIALIZED (
    SELECT
      k.claim
    FROM
      idempotency_keys k
    WHERE
      EXISTS (
        SELECT
        FROM
          target
      )
      AND k.team_id = :teamId
      AND k.user_id = :callerId::text
      AND k.key = :idempotencyKey::text
      AND k.claim = :keyClaim::uuid
    FOR NO KEY UPDATE OF
      k
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          x.id
        FROM
          target x
      ) p
    WHERE
      (
        :idempotencyKey::text IS NULL
        OR EXISTS (
          SELECT
          FROM
            key_held
        )
      )
  ),
  deleted AS (
    DELETE FROM webhooks w USING planned d
    WHERE
      w.team_id = :teamId
      AND w.id = d.id
    RETURNING
      w.id
  ),
  result AS (
    SELECT
      r.*,
      (
        :idempotencyKey::text IS NULL
        OR EXISTS (
          SELECT
          FROM
            key_held
        )
      ) AS holds_key,
      FALSE AS subscribed
    FROM
      (
        SELECT
          EXISTS (
            SELECT
              1
            FROM
              deleted
          ) AS deleted
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) AS answer
    FROM
      result r
    WHERE
      (r.deleted)
      AND r.holds_key
  ),
  kept AS (
    UPDATE idempotency_keys k
    SET
      status = 204,
      answer = a.answer,
      claim = NULL,
      claimed_until = NULL
    FROM
      kept_answer a
    WHERE
      k.team_id = :teamId
      AND k.user_id = :callerId::text
      AND k.key = :idempotencyKey::text
      AND k.claim = :keyClaim::uuid
  )
SELECT
  *
FROM
  result
