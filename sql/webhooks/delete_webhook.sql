-- delete_webhook: DELETE_WEBHOOK.announcing (src/webhooks). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :webhookId
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
  planned AS MATERIALIZED (
    SELECT
      x.id
    FROM
      target x
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
      TRUE AS holds_key,
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
  )
SELECT
  *
FROM
  result
