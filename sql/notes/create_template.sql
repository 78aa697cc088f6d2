-- create_template: CREATE_TEMPLATE.quiet (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :title, $4 :context, $5 :sections, $6 :aiActions, $7 :isShared, $8 :icon, $9 :actor
WITH
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          replace(gen_random_uuid()::text, '-', '') AS id,
          now() AS now
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
  created AS (
    INSERT INTO
      note_templates AS t (
        team_id,
        id,
        owner_id,
        title,
        context,
        sections,
        ai_actions,
        is_shared,
        icon,
        created_by,
        updated_by,
        time_created,
        time_updated
      )
    SELECT
      :teamId,
      n.id,
      :callerId,
      :title,
      :context,
      :sections::jsonb,
      :aiActions,
      :isShared,
      :icon::jsonb,
      :actor::jsonb,
      :actor::jsonb,
      n.now,
      n.now
    FROM
      planned n
    RETURNING
      ROW (t.*)::note_templates AS template
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
              (c.template).*
            FROM
              created c
          ) t
      ) r
  )
SELECT
  *
FROM
  result
