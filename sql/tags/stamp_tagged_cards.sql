-- stamp_tagged_cards: STAMP_TAGGED_CARDS (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :actor, $2 :teamId, $3 :tagId
UPDATE cards c
SET
  time_updated = now(),
  updated_by = :actor::jsonb,
  version = c.version + 1
WHERE
  c.team_id = :teamId
  AND c.id IN (
    SELECT
      n.card_id
    FROM
      card_tags n
    WHERE
      n.team_id = :teamId
      AND n.tag_id = :tagId
  )
