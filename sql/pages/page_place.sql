-- page_place: PAGE_PLACE (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :parentId, $4 :restores, $5 :pageId, $6 :keysProjectId, $7 :keysParentKey, $8 :keysIndex, $9 :projectId
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
    FOR UPDATE OF
      p
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
  me AS MATERIALIZED (
    SELECT
      sort_key
    FROM
      pages
    WHERE
      team_id = :teamId
      AND id = :pageId
      AND project_id = :keysProjectId::text
      AND COALESCE(parent_id, -1) = :keysParentKey::bigint
  ),
  bounds AS (
    SELECT
      lower_key,
      size,
      lead(lower_key) OVER (
        ORDER BY
          lower_key
      ) AS upper_key
    FROM
      page_sibling_blocks
    WHERE
      team_id = :teamId
      AND project_id = :keysProjectId
      AND parent_key = :keysParentKey
  ),
  blocks AS (
    SELECT
      b.lower_key,
      b.size - CASE
        WHEN me.sort_key >= b.lower_key
        AND (
          b.upper_key IS NULL
          OR me.sort_key < b.upper_key
        ) THEN 1
        ELSE 0
      END AS size
    FROM
      bounds b
      LEFT JOIN me ON TRUE
  ),
  target AS (
    SELECT
      lower_key,
      GREATEST(:keysIndex::bigint - 1, 0) - (
        sum(size) OVER (
          ORDER BY
            lower_key
        ) - size
      ) AS offset_in_block,
      sum(size) OVER (
        ORDER BY
          lower_key
      ) AS through
    FROM
      blocks
  ),
  chosen AS (
    SELECT
      lower_key,
      offset_in_block
    FROM
      target
    WHERE
      through > GREATEST(:keysIndex::bigint - 1, 0)
    ORDER BY
      lower_key
    LIMIT
      1
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
  CASE
    WHEN :keysProjectId IS NOT NULL THEN ARRAY(
      SELECT
        sort_key
      FROM
        pages
      WHERE
        team_id = :teamId
        AND project_id = :keysProjectId
        AND COALESCE(parent_id, -1) = :keysParentKey
        AND sort_key IS NOT NULL
        AND id <> :pageId
        AND sort_key >= (
          SELECT
            lower_key
          FROM
            chosen
        )
      ORDER BY
        sort_key
      OFFSET
        (
          SELECT
            offset_in_block
          FROM
            chosen
        )
      LIMIT
        2
    )
  END AS
WINDOW
,
  CASE
    WHEN :keysProjectId IS NOT NULL THEN (
      SELECT
        sort_key
      FROM
        pages
      WHERE
        team_id = :teamId
        AND project_id = :keysProjectId
        AND COALESCE(parent_id, -1) = :keysParentKey
        AND sort_key IS NOT NULL
        AND id <> :pageId
      ORDER BY
        sort_key DESC
      LIMIT
        1
    )
  END AS last,
  CASE
    WHEN :keysProjectId IS NOT NULL THEN (
      SELECT
        COALESCE(sum(size), 0)::int
      FROM
        blocks
    )
  END AS total
FROM
  facts f
  LEFT JOIN parent ON TRUE
