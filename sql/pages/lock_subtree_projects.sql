-- lock_subtree_projects: LOCK_SUBTREE_PROJECTS (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :pageId
WITH RECURSIVE
  doomed AS (
    SELECT
      p.id,
      p.project_id,
      0 AS depth
    FROM
      pages p
    WHERE
      p.team_id = :teamId
      AND p.id = :pageId
    UNION ALL
    SELECT
      k.id,
      k.project_id,
      d.depth + 1
    FROM
      doomed d
      JOIN LATERAL (
        SELECT
          c.id,
          c.project_id
        FROM
          pages c
        WHERE
          c.team_id = :teamId
          AND c.parent_id = d.id
        UNION ALL
        SELECT
          x.id,
          x.project_id
        FROM
          page_archives a
          JOIN pages x ON x.team_id = :teamId
          AND x.id = a.page_id
        WHERE
          a.team_id = :teamId
          AND a.former_parent_id = d.id
          AND a.archive_root_id = a.page_id
      ) k ON TRUE
  ),
  locked AS MATERIALIZED (
    SELECT
      COALESCE(array_agg(k), '{}') AS projects
    FROM
      (
        SELECT
          k,
          pg_advisory_xact_lock(hashtextextended (:teamId || '/' || k, 0)) AS taken
        FROM
          (
            SELECT
              k
            FROM
              (
                SELECT DISTINCT
                  project_id
                FROM
                  doomed
              ) named (k)
            ORDER BY
              k COLLATE "C"
            OFFSET
              0
          ) in_order
      ) each_lock
  )
SELECT
  projects AS locked_projects
FROM
  locked
