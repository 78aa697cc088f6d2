-- lock_tag_for_delete: LOCK_TAG_FOR_DELETE (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId
SELECT
  t.version::text AS version
FROM
  tags t
WHERE
  t.team_id = :teamId
  AND t.id = :tagId
FOR UPDATE OF
  t
