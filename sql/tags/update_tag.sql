-- update_tag: UPDATE_TAG.quiet (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId, $3 :name, $4 :slug, $5 :color
WITH
  target AS MATERIALIZED (
    SELECT
      t AS tag
    FROM
      tags t
    WHERE
      t.team_id = :teamId
      AND t.id = :tagId
    FOR NO KEY UPDATE
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          (x.tag).id,
          COALESCE(:name::text, (x.tag).name) AS name,
          COALESCE(:slug::text, (x.tag).slug) AS slug,
          COALESCE(:color::text, (x.tag).color) AS color,
          EXISTS (
            SELECT
              1
            FROM
              tags o
            WHERE
              o.team_id = :teamId
              AND o.id <> (x.tag).id
              AND o.project_id IS NOT DISTINCT FROM (x.tag).project_id
              AND o.name_key = simple_lowercase (:name::text) COLLATE "C"
          ) AS taken
        FROM
          target x
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
  changed AS (
    UPDATE tags t
    SET
      name = n.name,
      slug = n.slug,
      color = n.color,
      version = t.version + 1
    FROM
      planned n
    WHERE
      t.team_id = :teamId
      AND t.id = n.id
      AND NOT n.taken
      AND (n.name, n.slug, n.color) IS DISTINCT FROM (t.name, t.slug, t.color)
    RETURNING
      t AS tag
  ),
  written AS (
    SELECT
      tag
    FROM
      changed
    UNION ALL
    SELECT
      tag
    FROM
      target
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          changed
      )
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
          t.id::text AS id,
          t.team_id,
          t.project_id,
          t.name,
          t.slug,
          t.color,
          (
            SELECT
              count(*)
            FROM
              card_tags n
            WHERE
              n.team_id = :teamId
              AND n.tag_id = t.id
          )::int AS total_cards,
          t.version::text AS version,
          COALESCE(
            (
              SELECT
                taken
              FROM
                planned
            ),
            FALSE
          ) AS taken
        FROM
          (
            SELECT
              (w.tag).*
            FROM
              written w
          ) t
      ) r
  )
SELECT
  *
FROM
  result
