-- list_all_tags: LIST_ALL_TAGS (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :afterName, $3 :afterId, $4 :limit
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
  t.version::text AS version,
  t.name_key AS name_key
FROM
  (
    SELECT
      t.*
    FROM
      tags t
    WHERE
      t.team_id = :teamId
      AND TRUE
      AND t.name_key >= :afterName::text
      AND (t.name_key, t.id) > (:afterName::text, :afterId::bigint)
    ORDER BY
      t.name_key,
      t.id
    LIMIT
      :limit
  ) t
ORDER BY
  t.name_key,
  t.id
LIMIT
  :limit
