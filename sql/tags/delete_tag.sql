-- delete_tag: DELETE_TAG.quiet (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId, $3 :actor
WITH
  target AS MATERIALIZED (
    SELECT
      t.team_id,
      t.id
    FROM
      tags t
    WHERE
      t.team_id = :teamId
      AND t.id = :tagId
    FOR UPDATE
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          x.team_id,
          x.id,
          now() AS now
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
  unlinked AS (
    DELETE FROM card_tags n USING planned p
    WHERE
      n.team_id = :teamId
      AND n.tag_id = p.id
    RETURNING
      n.card_id
  ),
  stamped AS (
    UPDATE cards c
    SET
      time_updated = p.now,
      updated_by = :actor::jsonb,
      version = c.version + 1
    FROM
      planned p
    WHERE
      c.team_id = :teamId
      AND c.id IN (
        SELECT
          card_id
        FROM
          unlinked
      )
  ),
  deleted AS (
    DELETE FROM tags t USING planned p
    WHERE
      t.team_id = :teamId
      AND t.id = p.id
    RETURNING
      t.id
  ),
  retired AS (
    INSERT INTO
      id_counters AS k (team_id, kind, last_id)
    SELECT
      :teamId,
      'tag',
      m.id
    FROM
      (
        SELECT
          max(d.id) AS id
        FROM
          deleted d
      ) m
    WHERE
      m.id > COALESCE(
        (
          SELECT
            c.last_id
          FROM
            id_counters c
          WHERE
            c.team_id = :teamId
            AND c.kind = 'tag'
        ),
        -1
      )
    ON CONFLICT (team_id, kind) DO UPDATE
    SET
      last_id = greatest(k.last_id, EXCLUDED.last_id)
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
          EXISTS (
            SELECT
            FROM
              deleted
          ) AS deleted,
          ARRAY(
            SELECT
              card_id::text
            FROM
              unlinked
            ORDER BY
              card_id
          ) AS card_ids
      ) r
  )
SELECT
  *
FROM
  result
