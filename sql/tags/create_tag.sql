-- create_tag: CREATE_TAG.quiet (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :projectId, $2 :teamId, $3 :name, $4 :slug, $5 :color
WITH
  project AS MATERIALIZED (
    SELECT
      :projectId::text IS NULL
      OR EXISTS (
        SELECT
          1
        FROM
          projects p
        WHERE
          p.team_id = :teamId
          AND p.id = :projectId::text
      ) AS found
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          :teamId::text AS team_id,
          :projectId::text AS project_id,
          :name::text AS name,
          :slug::text AS slug,
          :color::text AS color
        FROM
          project
        WHERE
          found
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
  allocated AS (
    INSERT INTO
      id_counters AS k (team_id, kind, last_id, last_count)
    SELECT
      :teamId,
      'tag',
      COALESCE(
        (
          SELECT
            max(x.id)
          FROM
            tags x
          WHERE
            x.team_id = :teamId
        ),
        0
      ) + n.count,
      n.count
    FROM
      (
        SELECT
          (
            SELECT
              count(*)
            FROM
              planned
          ) AS count
      ) n
    ON CONFLICT (team_id, kind) DO UPDATE
    SET
      last_id = greatest(k.last_id, EXCLUDED.last_id - EXCLUDED.last_count) + EXCLUDED.last_count,
      last_count = EXCLUDED.last_count
    RETURNING
      k.last_id - k.last_count + 1 AS first_id,
      k.last_id AS last_id
  ),
  inserted AS (
    INSERT INTO
      tags AS t (team_id, id, project_id, name, slug, color)
    SELECT
      n.team_id,
      k.first_id,
      n.project_id,
      n.name,
      n.slug,
      n.color
    FROM
      planned n,
      allocated k
    ON CONFLICT DO NOTHING
    RETURNING
      t.*
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
          (
            SELECT
              found
            FROM
              project
          ) AS project_found,
          EXISTS (
            SELECT
            FROM
              planned
          )
          AND NOT EXISTS (
            SELECT
            FROM
              inserted
          ) AS taken,
          v.*
        FROM
          (
            SELECT
          ) one
          LEFT JOIN (
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
              t.version::text AS version
            FROM
              inserted t
          ) v ON TRUE
      ) r
  )
SELECT
  *
FROM
  result
