-- read_template: READ_TEMPLATE (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :templateId
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
  ) AS is_favourited
FROM
  note_templates t
WHERE
  t.team_id = :teamId
  AND t.id = :templateId
