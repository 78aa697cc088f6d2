-- sibling_ids: SIBLING_IDS (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId, $3 :parentKey, $4 :pageId
SELECT
  id::text
FROM
  pages
WHERE
  team_id = :teamId
  AND project_id = :projectId
  AND COALESCE(parent_id, -1) = :parentKey::bigint
  AND sort_key IS NOT NULL
  AND id <> :pageId
ORDER BY
  sort_key
