-- lock_tag: LOCK_TAG (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId
SELECT
  t.id::text AS id,
  t.team_id,
  t.project_id,
  t.name,
  t.slug,
  t.color,
  (
    SELECT
      count(*)
    FROM
      card_tags n
    WHERE
      n.team_id = :teamId
      AND n.tag_id = t.id
  )::int AS total_cards,
  t.version::text AS version
FROM
  tags t
WHERE
  t.team_id = :teamId
  AND t.id = :tagId
FOR NO KEY UPDATE OF
  t
