-- update_tag: UPDATE_TAG (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :name, $2 :slug, $3 :color, $4 :teamId, $5 :tagId
UPDATE tags t
SET
  name = COALESCE(:name::text, t.name),
  slug = COALESCE(:slug::text, t.slug),
  color = COALESCE(:color::text, t.color),
  version = t.version + 1
WHERE
  t.team_id = :teamId
  AND t.id = :tagId
  AND (
    COALESCE(:name::text, t.name),
    COALESCE(:slug::text, t.slug),
    COALESCE(:color::text, t.color)
  ) IS DISTINCT FROM (t.name, t.slug, t.color)
RETURNING
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
