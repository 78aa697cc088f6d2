-- read_card: READ_CARD (src/cards). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :cardId
SELECT
  c.id::text,
  c.team_id,
  c.project_id,
  c.title,
  c.owner_id,
  c.created_by,
  c.updated_by,
  c.version::text,
  floor(
    extract(
      epoch
      FROM
        c.time_created
    ) * 1000
  )::bigint::float8 AS time_created,
  floor(
    extract(
      epoch
      FROM
        c.time_updated
    ) * 1000
  )::bigint::float8 AS time_updated,
  EXISTS (
    SELECT
      1
    FROM
      card_members m
    WHERE
      m.team_id = :teamId
      AND m.card_id = c.id
      AND m.user_id = :callerId
  ) AS caller_is_member,
  COALESCE(
    (
      SELECT
        json_agg(
          json_build_object(
            'user_id',
            m.user_id,
            'assigned_date',
            floor(
              extract(
                epoch
                FROM
                  m.assigned_at
              ) * 1000
            )::bigint
          )
          ORDER BY
            m.assigned_at,
            m.user_id
        )
      FROM
        card_members m
      WHERE
        m.team_id = :teamId
        AND m.card_id = c.id
    ),
    '[]'
  ) AS members,
  COALESCE(
    (
      SELECT
        json_agg(
          json_build_object(
            'id',
            t.id::text,
            'team_id',
            t.team_id,
            'project_id',
            t.project_id,
            'name',
            t.name,
            'slug',
            t.slug,
            'color',
            t.color,
            'total_cards',
            (
              SELECT
                count(*)
              FROM
                card_tags n
              WHERE
                n.team_id = :teamId
                AND n.tag_id = t.id
            )
          )
          ORDER BY
            ct.attached_seq
        )
      FROM
        card_tags ct
        JOIN tags t ON t.team_id = :teamId
        AND t.id = ct.tag_id
      WHERE
        ct.team_id = :teamId
        AND ct.card_id = c.id
    ),
    '[]'
  ) AS tags
FROM
  cards c
WHERE
  c.team_id = :teamId
  AND c.id = :cardId
