-- subtree_to_copy: SUBTREE_TO_COPY (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :pageId, $3 :max
WITH RECURSIVE
  subtree AS (
    SELECT
      p.id,
      NULL::bigint AS parent_id,
      ARRAY[]::TEXT[] COLLATE "C" AS path
    FROM
      pages p
    WHERE
      p.team_id = :teamId
      AND p.id = :pageId
    UNION ALL
    SELECT
      c.id,
      c.parent_id,
      s.path || c.sort_key
    FROM
      subtree s
      JOIN pages c ON c.team_id = :teamId
      AND c.parent_id = s.id
      AND c.sort_key IS NOT NULL
  ),
  ordered AS (
    SELECT
      id,
      parent_id,
      row_number() OVER (
        ORDER BY
          path
      ) AS ordinal
    FROM
      subtree
  )
SELECT
  o.id::text,
  COALESCE(up.ordinal, 0)::int AS parent_ordinal
FROM
  ordered o
  LEFT JOIN ordered up ON up.id = o.parent_id
ORDER BY
  o.ordinal
LIMIT
  :max::int + 1
