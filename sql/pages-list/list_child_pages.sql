-- list_child_pages: LIST_CHILD_PAGES (src/pages-list). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :projectId, $4 :parentKey, $5 :afterKey, $6 :guest, $7 :limit
SELECT
  p.sort_key::text AS sort_key,
  p.id::text,
  p.alias_id::text,
  p.title,
  p.font,
  p.icon,
  ''::text AS content,
  p.schema,
  p.project_id,
  p.standalone,
  p.cover_image,
  p.owner_id,
  p.created_by,
  p.updated_by,
  p.team_id,
  p.is_public,
  p.public_url,
  p.public_robots,
  p.hide_table_of_contents,
  p.hide_subpages,
  p.parent_id::text AS parent_id,
  p.version::text AS version,
  floor(
    extract(
      epoch
      FROM
        p.time_created
    ) * 1000
  )::bigint::float8 AS time_created,
  floor(
    extract(
      epoch
      FROM
        p.time_updated
    ) * 1000
  )::bigint::float8 AS time_updated,
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
            )::bigint,
            'role',
            m.role
          )
          ORDER BY
            m.assigned_at,
            m.user_id
        )
      FROM
        page_members m
      WHERE
        m.team_id = :teamId
        AND m.page_id = p.id
    ),
    '[]'
  ) AS members,
  EXISTS (
    SELECT
      1
    FROM
      page_members m
    WHERE
      m.team_id = :teamId
      AND m.page_id = p.id
      AND m.user_id = :callerId
  ) AS caller_is_member,
  EXISTS (
    SELECT
      1
    FROM
      page_bookmarks b
    WHERE
      b.team_id = :teamId
      AND b.page_id = p.id
      AND b.user_id = :callerId
  ) AS is_bookmarked,
  EXISTS (
    SELECT
      1
    FROM
      page_watchers w
    WHERE
      w.team_id = :teamId
      AND w.page_id = p.id
      AND w.user_id = :callerId
  ) AS is_watching,
  (
    SELECT
      count(*)
    FROM
      page_comments c
    WHERE
      c.team_id = :teamId
      AND c.page_id = p.id
  )::int AS total_comments,
  a.archived_by,
  floor(
    extract(
      epoch
      FROM
        a.time_archived
    ) * 1000
  )::bigint::float8 AS time_archived,
  a.former_parent_id::text AS former_parent_id,
  CASE
    WHEN a.archived_by IS NULL THEN COALESCE(
      NULL::int,
      (
        SELECT
          (
            SELECT
              COALESCE(sum(b.size), 0)
            FROM
              page_sibling_blocks b
            WHERE
              b.team_id = :teamId
              AND b.project_id = p.project_id
              AND b.parent_key = COALESCE(p.parent_id, -1)
              AND b.lower_key < mine.lower_key
          ) + (
            SELECT
              count(*)
            FROM
              pages s
            WHERE
              s.team_id = :teamId
              AND s.project_id = p.project_id
              AND COALESCE(s.parent_id, -1) = COALESCE(p.parent_id, -1)
              AND s.sort_key >= mine.lower_key
              AND s.sort_key < p.sort_key
          )
        FROM
          (
            SELECT
              max(b.lower_key) AS lower_key
            FROM
              page_sibling_blocks b
            WHERE
              b.team_id = :teamId
              AND b.project_id = p.project_id
              AND b.parent_key = COALESCE(p.parent_id, -1)
              AND b.lower_key <= p.sort_key
          ) mine
      )::int
    )
  END AS position
FROM
  pages p
  LEFT JOIN page_archives a ON a.team_id = :teamId
  AND a.page_id = p.id
WHERE
  p.team_id = :teamId
  AND p.project_id = :projectId
  AND COALESCE(p.parent_id, -1) = :parentKey::bigint
  AND p.sort_key IS NOT NULL
  AND (
    :afterKey::text IS NULL
    OR p.sort_key > (:afterKey::text COLLATE "C")
  )
  AND (
    NOT :guest::boolean
    OR EXISTS (
      SELECT
        1
      FROM
        page_members m
      WHERE
        m.team_id = :teamId
        AND m.page_id = p.id
        AND m.user_id = :callerId
    )
  )
ORDER BY
  p.sort_key
LIMIT
  :limit::int
