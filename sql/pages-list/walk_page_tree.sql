-- walk_page_tree: WALK_PAGE_TREE (src/pages-list). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :projectId, $2 :pathIds, $3 :pathKeys, $4 :teamId, $5 :onlyProject, $6 :steps, $7 :callerId
WITH RECURSIVE
  walk (n, project_id, ids, keys) AS (
    SELECT
      0,
      :projectId::text,
      :pathIds::BIGINT[],
      :pathKeys::TEXT[] COLLATE "C"
    UNION ALL
    SELECT
      w.n + 1,
      next.project_id,
      next.ids,
      next.keys
    FROM
      walk w
      CROSS JOIN LATERAL (
        (
          SELECT
            w.project_id,
            w.ids || c.id,
            w.keys || c.sort_key::text
          FROM
            pages c
          WHERE
            c.team_id = :teamId
            AND c.project_id = w.project_id
            AND COALESCE(c.parent_id, -1) = COALESCE(w.ids[cardinality(w.ids)], -1)
            AND c.sort_key IS NOT NULL
          ORDER BY
            c.sort_key
          LIMIT
            1
        )
        UNION ALL
        (
          SELECT
            w.project_id,
            w.ids[1 :d.level - 1] || s.id,
            w.keys[1 :d.level - 1] || s.sort_key::text
          FROM
            generate_series(cardinality(w.ids), 1, -1) d (level)
            CROSS JOIN LATERAL (
              SELECT
                s.id,
                s.sort_key
              FROM
                pages s
              WHERE
                s.team_id = :teamId
                AND s.project_id = w.project_id
                AND COALESCE(s.parent_id, -1) = COALESCE(w.ids[d.level - 1], -1)
                AND s.sort_key IS NOT NULL
                AND s.sort_key > (w.keys[d.level] COLLATE "C")
              ORDER BY
                s.sort_key
              LIMIT
                1
            ) s
          ORDER BY
            d.level DESC
          LIMIT
            1
        )
        UNION ALL
        (
          SELECT
            r.project_id,
            ARRAY[r.id],
            ARRAY[r.sort_key::text]
          FROM
            pages r
          WHERE
            NOT :onlyProject::boolean
            AND r.team_id = :teamId
            AND r.project_id > COALESCE(w.project_id, '')
            AND COALESCE(r.parent_id, -1) = -1
            AND r.sort_key IS NOT NULL
          ORDER BY
            r.project_id,
            r.sort_key
          LIMIT
            1
        )
        LIMIT
          1
      ) next (project_id, ids, keys)
    WHERE
      w.n < :steps::int
  )
SELECT
  w.n,
  w.project_id AS walk_project,
  w.ids::TEXT[] AS path_ids,
  w.keys AS path_keys,
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
  walk w
  JOIN pages p ON p.team_id = :teamId
  AND p.id = w.ids[cardinality(w.ids)]
  LEFT JOIN page_archives a ON a.team_id = :teamId
  AND a.page_id = p.id
WHERE
  w.n > 0
ORDER BY
  w.n
