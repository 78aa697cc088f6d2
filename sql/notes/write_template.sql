-- write_template: WRITE_TEMPLATE.quiet (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :templateId, $3 :title, $4 :context, $5 :sections, $6 :icon, $7 :aiActions, $8 :isShared, $9 :callerId, $10 :actor
WITH
  target AS MATERIALIZED (
    SELECT
      t AS template
    FROM
      note_templates t
    WHERE
      t.team_id = :teamId
      AND t.id = :templateId
    FOR NO KEY UPDATE
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          (x.template).team_id,
          (x.template).id,
          COALESCE(:title::text, (x.template).title) AS title,
          COALESCE(:context::text, (x.template).context) AS context,
          COALESCE(:sections::jsonb, (x.template).sections) AS sections,
          COALESCE(:icon::jsonb, (x.template).icon) AS icon,
          COALESCE(:aiActions::boolean, (x.template).ai_actions) AS ai_actions,
          COALESCE(:isShared::boolean, (x.template).is_shared) AS is_shared,
          now() AS now
        FROM
          target x
        WHERE
          (x.template).owner_id = :callerId::text
      ) p
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = :teamId
      )
  ),
  changed AS (
    UPDATE note_templates t
    SET
      title = n.title,
      context = n.context,
      sections = n.sections,
      icon = n.icon,
      ai_actions = n.ai_actions,
      is_shared = n.is_shared,
      updated_by = :actor::jsonb,
      time_updated = n.now,
      version = t.version + 1
    FROM
      planned n
    WHERE
      t.team_id = :teamId
      AND t.id = n.id
      AND (n.title, n.context, n.sections, n.icon, n.ai_actions, n.is_shared) IS DISTINCT FROM (t.title, t.context, t.sections, t.icon, t.ai_actions, t.is_shared)
    RETURNING
      t AS template
  ),
  written AS (
    SELECT
      template
    FROM
      changed
    UNION ALL
    SELECT
      template
    FROM
      target
    WHERE
      NOT EXISTS (
        SELECT
          1
        FROM
          changed
      )
  ),
  result AS (
    SELECT
      r.*,
      TRUE AS holds_key,
      EXISTS (
        SELECT
          1
        FROM
          webhooks w
        WHERE
          w.team_id = :teamId
      ) AS subscribed
    FROM
      (
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
          (
            SELECT
              (w.template).*
            FROM
              written w
          ) t
      ) r
  )
SELECT
  *
FROM
  result
