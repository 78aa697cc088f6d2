-- delete_tag: DELETE_TAG (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId
DELETE FROM tags t
WHERE
  t.team_id = :teamId
  AND t.id = :tagId
RETURNING
  t.id::text
