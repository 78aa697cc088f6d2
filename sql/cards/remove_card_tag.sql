-- remove_card_tag: REMOVE_TAG.quiet (src/cards). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId, $3 :callerId, $4 :cardId, $5 :listedOnly, $6 :actor
WITH
  target AS MATERIALIZED (
    SELECT
      c.team_id,
      c.id,
      c.version,
      (
        SELECT
          COALESCE(array_agg(h.id), '{}')
        FROM
          (
            SELECT
              t.id
            FROM
              tags t
            WHERE
              t.team_id = :teamId
              AND t.id = ANY (ARRAY[:tagId::bigint])
            ORDER BY
              t.id
            FOR KEY SHARE
          ) h
      ) AS held_tags,
      EXISTS (
        SELECT
          1
        FROM
          card_members m
        WHERE
          m.team_id = :teamId
          AND m.card_id = c.id
          AND m.user_id = :callerId
      ) AS caller_is_member
    FROM
      cards c
    WHERE
      c.team_id = :teamId
      AND c.id = :cardId
    FOR NO KEY UPDATE
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          team_id,
          id,
          now() AS now
        FROM
          target
        WHERE
          (
            caller_is_member
            OR NOT :listedOnly::boolean
          )
          AND cardinality(held_tags) = 1
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
  removed AS (
    DELETE FROM card_tags n USING planned a
    WHERE
      n.team_id = :teamId
      AND n.card_id = a.id
      AND n.tag_id = ANY (ARRAY[:tagId::bigint])
    RETURNING
      n.tag_id
  ),
  stamped AS (
    UPDATE cards c
    SET
      time_updated = a.now,
      updated_by = :actor::jsonb,
      version = c.version + 1
    FROM
      planned a
    WHERE
      c.team_id = :teamId
      AND c.id = a.id
      AND EXISTS (
        SELECT
          1
        FROM
          removed
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
          card.caller_is_member,
          cardinality(card.held_tags) = 1 AS tag_exists,
          (
            card.version + CASE
              WHEN EXISTS (
                SELECT
                FROM
                  removed
              ) THEN 1
              ELSE 0
            END
          )::text AS version,
          EXISTS (
            SELECT
            FROM
              planned
          ) AS removes
        FROM
          target card
      ) r
  )
SELECT
  *
FROM
  result
