-- walk_page_tree: WALK_PAGE_TREE (src/pages-list). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :snapshot, $2 :projectId, $3 :pathIds, $4 :pathKeys, $5 :teamId, $6 :onlyProject, $7 :steps, $8 :callerId
WITH RECURSIVE
  snap AS (
    SELECT
      COALESCE(:snapshot::pg_snapshot, pg_current_snapshot()) AS s
  ),
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
            w.ids || f.id,
            w.keys || f.sort_key::text
          FROM
            (
              SELECT
                x.id,
                x.sort_key
              FROM
                (
                  (
                    SELECT
                      c.id,
                      c.sort_key
                    FROM
                      pages c
                    WHERE
                      c.team_id = :teamId
                      AND c.project_id = w.project_id
                      AND COALESCE(c.parent_id, -1) = COALESCE(w.ids[cardinality(w.ids)], -1)
                      AND c.sort_key IS NOT NULL
                      AND c.sort_key > ''
                      AND pg_visible_in_snapshot(
                        c.created_xid,
                        (
                          SELECT
                            s
                          FROM
                            snap
                        )
                      )
                      AND NOT EXISTS (
                        SELECT
                          1
                        FROM
                          page_moves m
                        WHERE
                          m.team_id = :teamId
                          AND m.page_id = c.id
                          AND NOT pg_visible_in_snapshot(
                            m.xid,
                            (
                              SELECT
                                s
                              FROM
                                snap
                            )
                          )
                      )
                    ORDER BY
                      c.sort_key
                    LIMIT
                      1
                  )
                  UNION ALL
                  (
                    SELECT
                      m.page_id,
                      m.old_sort_key
                    FROM
                      page_moves m
                    WHERE
                      m.team_id = :teamId
                      AND m.old_project_id = w.project_id
                      AND m.old_parent_key = COALESCE(w.ids[cardinality(w.ids)], -1)
                      AND m.old_sort_key IS NOT NULL
                      AND m.old_sort_key > ''
                      AND NOT pg_visible_in_snapshot(
                        m.xid,
                        (
                          SELECT
                            s
                          FROM
                            snap
                        )
                      )
                      AND NOT EXISTS (
                        SELECT
                          1
                        FROM
                          page_moves e
                        WHERE
                          e.team_id = :teamId
                          AND e.page_id = m.page_id
                          AND NOT pg_visible_in_snapshot(
                            e.xid,
                            (
                              SELECT
                                s
                              FROM
                                snap
                            )
                          )
                          AND e.id < m.id
                      )
                      AND (
                        EXISTS (
                          SELECT
                            1
                          FROM
                            pages c
                          WHERE
                            c.team_id = :teamId
                            AND c.id = m.page_id
                            AND pg_visible_in_snapshot(
                              c.created_xid,
                              (
                                SELECT
                                  s
                                FROM
                                  snap
                              )
                            )
                        )
                        OR (
                          SELECT
                            TRUE
                          FROM
                            page_moves g
                          WHERE
                            g.team_id = :teamId
                            AND g.page_id = m.page_id
                            AND pg_visible_in_snapshot(
                              g.deleted_created_xid,
                              (
                                SELECT
                                  s
                                FROM
                                  snap
                              )
                            )
                          LIMIT
                            1
                        )
                      )
                    ORDER BY
                      m.old_sort_key
                    LIMIT
                      1
                  )
                ) x
              ORDER BY
                x.sort_key
              LIMIT
                1
            ) f
        )
        UNION ALL
        (
          SELECT
            w.project_id,
            w.ids[1 :d.level - 1] || f.id,
            w.keys[1 :d.level - 1] || f.sort_key::text
          FROM
            generate_series(cardinality(w.ids), 1, -1) d (level)
            CROSS JOIN LATERAL (
              SELECT
                x.id,
                x.sort_key
              FROM
                (
                  (
                    SELECT
                      c.id,
                      c.sort_key
                    FROM
                      pages c
                    WHERE
                      c.team_id = :teamId
                      AND c.project_id = w.project_id
                      AND COALESCE(c.parent_id, -1) = COALESCE(w.ids[d.level - 1], -1)
                      AND c.sort_key IS NOT NULL
                      AND c.sort_key > w.keys[d.level]
                      AND pg_visible_in_snapshot(
                        c.created_xid,
                        (
                          SELECT
                            s
                          FROM
                            snap
                        )
                      )
                      AND NOT EXISTS (
                        SELECT
                          1
                        FROM
                          page_moves m
                        WHERE
                          m.team_id = :teamId
                          AND m.page_id = c.id
                          AND NOT pg_visible_in_snapshot(
                            m.xid,
                            (
                              SELECT
                                s
                              FROM
                                snap
                            )
                          )
                      )
                    ORDER BY
                      c.sort_key
                    LIMIT
                      1
                  )
                  UNION ALL
                  (
                    SELECT
                      m.page_id,
                      m.old_sort_key
                    FROM
                      page_moves m
                    WHERE
                      m.team_id = :teamId
                      AND m.old_project_id = w.project_id
                      AND m.old_parent_key = COALESCE(w.ids[d.level - 1], -1)
                      AND m.old_sort_key IS NOT NULL
                      AND m.old_sort_key > w.keys[d.level]
                      AND NOT pg_visible_in_snapshot(
                        m.xid,
                        (
                          SELECT
                            s
                          FROM
                            snap
                        )
                      )
                      AND NOT EXISTS (
                        SELECT
                          1
                        FROM
                          page_moves e
                        WHERE
                          e.team_id = :teamId
                          AND e.page_id = m.page_id
                          AND NOT pg_visible_in_snapshot(
                            e.xid,
                            (
                              SELECT
                                s
                              FROM
                                snap
                            )
                          )
                          AND e.id < m.id
                      )
                      AND (
                        EXISTS (
                          SELECT
                            1
                          FROM
                            pages c
                          WHERE
                            c.team_id = :teamId
                            AND c.id = m.page_id
                            AND pg_visible_in_snapshot(
                              c.created_xid,
                              (
                                SELECT
                                  s
                                FROM
                                  snap
                              )
                            )
                        )
                        OR (
                          SELECT
                            TRUE
                          FROM
                            page_moves g
                          WHERE
                            g.team_id = :teamId
                            AND g.page_id = m.page_id
                            AND pg_visible_in_snapshot(
                              g.deleted_created_xid,
                              (
                                SELECT
                                  s
                                FROM
                                  snap
                              )
                            )
                          LIMIT
                            1
                        )
                      )
                    ORDER BY
                      m.old_sort_key
                    LIMIT
                      1
                  )
                ) x
              ORDER BY
                x.sort_key
              LIMIT
                1
            ) f
          ORDER BY
            d.level DESC
          LIMIT
            1
        )
        UNION ALL
        (
          SELECT
            pr.id,
            ARRAY[f.id],
            ARRAY[f.sort_key::text]
          FROM
            projects pr
            CROSS JOIN LATERAL (
              SELECT
                x.id,
                x.sort_key
              FROM
                (
                  (
                    SELECT
                      c.id,
                      c.sort_key
                    FROM
                      pages c
                    WHERE
                      c.team_id = :teamId
                      AND c.project_id = pr.id
                      AND COALESCE(c.parent_id, -1) = -1
                      AND c.sort_key IS NOT NULL
                      AND c.sort_key > ''
                      AND pg_visible_in_snapshot(
                        c.created_xid,
                        (
                          SELECT
                            s
                          FROM
                            snap
                        )
                      )
                      AND NOT EXISTS (
                        SELECT
                          1
                        FROM
                          page_moves m
                        WHERE
                          m.team_id = :teamId
                          AND m.page_id = c.id
                          AND NOT pg_visible_in_snapshot(
                            m.xid,
                            (
                              SELECT
                                s
                              FROM
                                snap
                            )
                          )
                      )
                    ORDER BY
                      c.sort_key
                    LIMIT
                      1
                  )
                  UNION ALL
                  (
                    SELECT
                      m.page_id,
                      m.old_sort_key
                    FROM
                      page_moves m
                    WHERE
                      m.team_id = :teamId
                      AND m.old_project_id = pr.id
                      AND m.old_parent_key = -1
                      AND m.old_sort_key IS NOT NULL
                      AND m.old_sort_key > ''
                      AND NOT pg_visible_in_snapshot(
                        m.xid,
                        (
                          SELECT
                            s
                          FROM
                            snap
                        )
                      )
                      AND NOT EXISTS (
                        SELECT
                          1
                        FROM
                          page_moves e
                        WHERE
                          e.team_id = :teamId
                          AND e.page_id = m.page_id
                          AND NOT pg_visible_in_snapshot(
                            e.xid,
                            (
                              SELECT
                                s
                              FROM
                                snap
                            )
                          )
                          AND e.id < m.id
                      )
                      AND (
                        EXISTS (
                          SELECT
                            1
                          FROM
                            pages c
                          WHERE
                            c.team_id = :teamId
                            AND c.id = m.page_id
                            AND pg_visible_in_snapshot(
                              c.created_xid,
                              (
                                SELECT
                                  s
                                FROM
                                  snap
                              )
                            )
                        )
                        OR (
                          SELECT
                            TRUE
                          FROM
                            page_moves g
                          WHERE
                            g.team_id = :teamId
                            AND g.page_id = m.page_id
                            AND pg_visible_in_snapshot(
                              g.deleted_created_xid,
                              (
                                SELECT
                                  s
                                FROM
                                  snap
                              )
                            )
                          LIMIT
                            1
                        )
                      )
                    ORDER BY
                      m.old_sort_key
                    LIMIT
                      1
                  )
                ) x
              ORDER BY
                x.sort_key
              LIMIT
                1
            ) f
          WHERE
            NOT :onlyProject::boolean
            AND pr.team_id = :teamId
            AND pr.id > COALESCE(w.project_id, '')
          ORDER BY
            pr.id
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
  (
    SELECT
      s
    FROM
      snap
  )::text AS snapshot,
  w.n,
  w.project_id AS walk_project,
  w.ids::TEXT[] AS path_ids,
  w.keys AS path_keys,
  (
    p.id IS NOT NULL
    AND a.page_id IS NULL
  ) AS listed,
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
  LEFT JOIN pages p ON p.team_id = :teamId
  AND p.id = w.ids[cardinality(w.ids)]
  LEFT JOIN page_archives a ON a.team_id = :teamId
  AND a.page_id = p.id
WHERE
  w.n > 0
ORDER BY
  w.n
