-- new_page_place: NEW_PAGE_PLACE (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :keysProjectId, $3 :keysParentKey, $4 :keysIndex, $5 :projectId, $6 :parentId
WITH
  me AS MATERIALIZED (
    SELECT
      sort_key
    FROM
      pages
    WHERE
      team_id = :teamId
      AND id = -1
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
  EXISTS (
    SELECT
      1
    FROM
      projects pr
    WHERE
      pr.team_id = :teamId
      AND pr.id = :projectId::text
  ) AS project_exists,
  q.project_id AS parent_project_id,
  CASE
    WHEN q.id IS NOT NULL THEN EXISTS (
      SELECT
        1
      FROM
        page_archives a
      WHERE
        a.team_id = :teamId
        AND a.page_id = q.id
    )
  END AS parent_archived,
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
        AND id <> -1
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
        AND id <> -1
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
  (
    SELECT
  ) one
  LEFT JOIN (
    SELECT
      p.id,
      p.project_id
    FROM
      pages p
    WHERE
      p.team_id = :teamId
      AND p.id = :parentId::bigint
  ) q ON TRUE
