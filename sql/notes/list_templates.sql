-- list_templates: LIST_TEMPLATES (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :afterOwned, $4 :afterTitle, $5 :afterId, $6 :take
SELECT
  t.team_id,
  t.id,
  t.owner_id,
  t.title,
  t.context,
  t.sections,
  t.ai_actions,
  t.is_shared,
  t.icon,
  t.created_by,
  t.updated_by,
  t.time_created,
  t.time_updated,
  t.version::text AS version,
  EXISTS (
    SELECT
      1
    FROM
      note_template_favourites f
    WHERE
      f.team_id = :teamId
      AND f.template_id = t.id
      AND f.user_id = :callerId
  ) AS is_favourited,
  t.owned,
  t.title_key
FROM
  (
    SELECT
      t.*,
      t.owner_id IS NOT NULL AS owned,
      simple_lowercase (t.title) COLLATE "C" AS title_key
    FROM
      note_templates t
    WHERE
      t.team_id = :teamId
      AND (
        t.owner_id IS NULL
        OR t.is_shared
        OR t.owner_id = :callerId
      )
  ) t
WHERE
  :afterOwned::boolean IS NULL
  OR (t.owned, t.title_key, t.id COLLATE "C") > (:afterOwned, :afterTitle::text COLLATE "C", :afterId::text COLLATE "C")
ORDER BY
  t.owned,
  t.title_key,
  t.id COLLATE "C"
LIMIT
  :take
