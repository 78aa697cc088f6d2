-- insert_tag: INSERT_TAG (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId, $3 :name, $4 :slug, $5 :color
INSERT INTO
  tags AS t (team_id, id, project_id, name, slug, color)
SELECT
  :teamId,
  k.last_id,
  :projectId::text,
  :name::text,
  :slug::text,
  :color::text
FROM
  id_counters k
WHERE
  k.team_id = :teamId
  AND k.kind = 'tag'
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
