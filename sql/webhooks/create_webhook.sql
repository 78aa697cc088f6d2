-- create_webhook: CREATE_WEBHOOK.announcing (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :url, $3 :events, $4 :description, $5 :sealedSecret, $6 :actor, $7 :max
WITH
  planned AS MATERIALIZED (
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
      TRUE AS holds_key,
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
  )
SELECT
  *
FROM
  result
