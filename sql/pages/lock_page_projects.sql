-- lock_page_projects: LOCK_PAGE_PROJECTS (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :parentId, $4 :restores, $5 :pageId, $6 :projectId
WITH RECURSIVE
  facts AS MATERIALIZED (
    SELECT
      p.project_id,
      p.parent_id::text AS parent_id,
      p.sort_key,
      a.archive_root_id::text AS archive_root_id,
      a.former_parent_id::text AS former_parent_id,
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
      COALESCE(
        :parentId::bigint,
        CASE
          WHEN :restores::boolean
          AND a.page_id IS NOT NULL THEN CASE
            WHEN a.archive_root_id = p.id THEN a.former_parent_id
            ELSE p.parent_id
          END
        END
      ) AS parent_to_check
    FROM
      pages p
      LEFT JOIN page_archives a ON a.team_id = :teamId
      AND a.page_id = p.id
    WHERE
      p.team_id = :teamId
      AND p.id = :pageId
  ),
  ancestry AS (
    SELECT
      q.id,
      q.parent_id
    FROM
      pages q
      JOIN facts f ON q.team_id = :teamId
      AND q.id = f.parent_to_check
    UNION ALL
    SELECT
      q.id,
      q.parent_id
    FROM
      pages q
      JOIN ancestry up ON q.team_id = :teamId
      AND q.id = up.parent_id
  ),
  parent AS (
    SELECT
      q.project_id,
      EXISTS (
        SELECT
          1
        FROM
          page_archives a
        WHERE
          a.team_id = :teamId
          AND a.page_id = q.id
      ) AS archived,
      EXISTS (
        SELECT
          1
        FROM
          ancestry
        WHERE
          id = :pageId
      ) AS cycle
    FROM
      pages q
      JOIN facts f ON q.team_id = :teamId
      AND q.id = f.parent_to_check
  ),
  named AS (
    SELECT DISTINCT
      k
    FROM
      (
        SELECT
          project_id
        FROM
          facts
        UNION ALL
        SELECT
          :projectId::text
        UNION ALL
        SELECT
          project_id
        FROM
          parent
      ) all_named (k)
    WHERE
      k IS NOT NULL
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
              named
            ORDER BY
              k COLLATE "C"
            OFFSET
              0
          ) in_order
      ) each_lock
  )
SELECT
  f.project_id,
  f.parent_id,
  f.sort_key,
  f.archive_root_id,
  f.former_parent_id,
  f.caller_is_member,
  f.parent_to_check::text AS parent_to_check,
  parent.project_id AS parent_project_id,
  parent.archived AS parent_archived,
  parent.cycle AS parent_cycle,
  EXISTS (
    SELECT
      1
    FROM
      projects pr
    WHERE
      pr.team_id = :teamId
      AND pr.id = :projectId::text
  ) AS project_exists,
  locked.projects AS locked_projects
FROM
  locked
  LEFT JOIN facts f ON TRUE
  LEFT JOIN parent ON TRUE
