-- create_template_announcing: CREATE_TEMPLATE.announcing (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :title, $4 :context, $5 :sections, $6 :aiActions, $7 :isShared, $8 :icon, $9 :actor, $10 :traceParent
WITH
  planned AS MATERIALIZED (
    SELECT
      replace(gen_random_uuid()::text, '-', '') AS id,
      now() AS now
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
      FALSE AS subscribed
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
  ),
  event_rows AS MATERIALIZED (
    SELECT
      e.*
    FROM
      (
        SELECT
          'note_template.created' AS type,
          'note_template' AS resource_type,
          r.id AS resource_id,
          :actor::jsonb AS actor,
          to_jsonb(r) AS resource,
          NULL::jsonb AS previous
        FROM
          result r
      ) e
    WHERE
      ARRAY[e.type, '*'] && ARRAY(
        SELECT
          unnest(w.events)
        FROM
          webhooks w
        WHERE
          w.team_id = :teamId
      )
  ),
  event_ids AS MATERIALIZED (
    SELECT
      r.*,
      nextval('webhook_events_id_seq') AS id
    FROM
      event_rows r
  ),
  announced AS (
    INSERT INTO
      webhook_events (
        team_id,
        id,
        type,
        resource_type,
        resource_id,
        actor,
        resource,
        previous,
        trace_parent
      )
    SELECT
      :teamId,
      e.id,
      e.type,
      e.resource_type,
      e.resource_id,
      e.actor,
      e.resource,
      e.previous,
      :traceParent::text
    FROM
      event_ids e
    RETURNING
      team_id,
      id,
      type,
      resource_type,
      resource_id
  ),
  fanned_out AS (
    INSERT INTO
      webhook_deliveries (team_id, webhook_id, event_id, resource_key)
    SELECT
      a.team_id,
      w.id,
      a.id,
      a.resource_type || ':' || a.resource_id
    FROM
      announced a
      JOIN webhooks w ON w.team_id = :teamId
      AND w.events && ARRAY[a.type, '*']
    RETURNING
      team_id,
      webhook_id,
      event_id,
      resource_key
  ),
  streamed AS (
    INSERT INTO
      webhook_streams AS s (team_id, webhook_id, resource_key, next_attempt_at, last_event_id)
    SELECT
      team_id,
      webhook_id,
      resource_key,
      now(),
      event_id
    FROM
      fanned_out
    ORDER BY
      webhook_id
    ON CONFLICT (team_id, webhook_id, resource_key) DO UPDATE
    SET
      next_attempt_at = COALESCE(s.next_attempt_at, excluded.next_attempt_at),
      last_event_id = GREATEST(s.last_event_id, excluded.last_event_id)
  )
SELECT
  *,
  EXISTS (
    SELECT
      1
    FROM
      fanned_out
  ) AS announced
FROM
  result
