-- unlink_tag: UNLINK_TAG (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId
DELETE FROM card_tags n
WHERE
  n.team_id = :teamId
  AND n.tag_id = :tagId
RETURNING
  n.card_id::text
