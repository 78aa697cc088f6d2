-- delete_template: DELETE_TEMPLATE.quiet (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :templateId, $3 :callerId
WITH
  target AS MATERIALIZED (
    SELECT
      t.team_id,
      t.id,
      t.owner_id
    FROM
      note_templates t
    WHERE
      t.team_id = :teamId
      AND t.id = :templateId
    FOR UPDATE
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
        WHERE
          x.owner_id = :callerId::text
      ) p
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = :teamId
      )
  ),
  deleted AS (
    DELETE FROM note_templates t USING planned d
    WHERE
      t.team_id = :teamId
      AND t.id = d.id
    RETURNING
      t.id
  ),
  result AS (
    SELECT
      r.*,
      TRUE AS holds_key,
      EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = :teamId
      ) AS subscribed
    FROM
      (
        SELECT
          x.owner_id,
          EXISTS (
            SELECT
              1
            FROM
              deleted
          ) AS deleted
        FROM
          target x
      ) r
  )
SELECT
  *
FROM
  result
