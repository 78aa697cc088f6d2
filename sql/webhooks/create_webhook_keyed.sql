-- create_webhook_keyed: CREATE_WEBHOOK.keyed (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :idempotencyKey, $4 :keyClaim, $5 :url, $6 :events, $7 :description, $8 :sealedSecret, $9 :actor, $10 :max
WITH
  key_held AS MATERIALIZED (
    SELECT
      k.claim
    FROM
      idempotency_keys k
    WHERE
      TRUE
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
          :teamId::text AS team_id,
          :url::text AS url,
          :events::TEXT[] AS events,
          :description::text AS description,
          :sealedSecret::text AS secret,
          :actor::jsonb AS created_by
        WHERE
          (
            SELECT
              count(*)
            FROM
              webhooks
            WHERE
              team_id = :teamId
          ) < :max
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
  created AS (
    INSERT INTO
      webhooks AS w (team_id, url, events, description, secret, created_by)
    SELECT
      team_id,
      url,
      events,
      description,
      secret,
      created_by
    FROM
      planned
    RETURNING
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
      w.created_by AS "user",
      w.secret AS sealed_secret
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
          c.*
        FROM
          (
            SELECT
          ) one
          LEFT JOIN created c ON TRUE
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) AS answer
    FROM
      result r
    WHERE
      (r.id IS NOT NULL)
      AND r.holds_key
  ),
  kept AS (
    UPDATE idempotency_keys k
    SET
      status = 201,
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
