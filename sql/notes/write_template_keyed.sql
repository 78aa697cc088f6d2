-- write_template_keyed: WRITE_TEMPLATE.keyed (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :templateId, $3 :callerId, $4 :idempotencyKey, $5 :keyClaim, $6 :title, $7 :context, $8 :sections, $9 :icon, $10 :aiActions, $11 :isShared, $12 :actor, $13 :traceParent
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
  key_held AS MATERIALIZED (
    SELECT
      k.claim
    FROM
      idempotency_keys k
    WHERE
      EXISTS (
        SELECT
        FROM
          target
      )
      AND k.team_id = :teamId
      AND k.user_id = :callerId::text
      AND k.key = :idempotencyKey::text
      AND k.claim = :keyClaim::uuid
    FOR NO KEY UPDATE OF
      k
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
      (
        :idempotencyKey::text IS NULL
        OR EXISTS (
          SELECT
          FROM
            key_held
        )
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
      (
        :idempotencyKey::text IS NULL
        OR EXISTS (
          SELECT
          FROM
            key_held
        )
      ) AS holds_key,
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
              (w.template).*
            FROM
              written w
          ) t
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) AS answer
    FROM
      result r
    WHERE
      (r.owner_id = :callerId)
      AND r.holds_key
  ),
  kept AS (
    UPDATE idempotency_keys k
    SET
      status = 200,
      answer = a.answer,
      claim = NULL,
      claimed_until = NULL
    FROM
      kept_answer a
    WHERE
      k.team_id = :teamId
      AND k.user_id = :callerId::text
      AND k.key = :idempotencyKey::text
      AND k.claim = :keyClaim::uuid
  ),
  event_rows AS MATERIALIZED (
    SELECT
      e.*
    FROM
      (
        SELECT
          'note_template.updated' AS type,
          'note_template' AS resource_type,
          r.id AS resource_id,
          :actor::jsonb AS actor,
          to_jsonb(r) AS resource,
          (
            SELECT
              COALESCE(jsonb_object_agg(b.key, b.value), '{}')
            FROM
              jsonb_each(
                (
                  SELECT
                    to_jsonb(x.template)
                  FROM
                    target x
                )
              ) b
            WHERE
              b.value IS DISTINCT FROM (
                SELECT
                  to_jsonb(c.template)
                FROM
                  changed c
              ) -> b.key
          ) AS previous
        FROM
          result r
        WHERE
          EXISTS (
            SELECT
              1
            FROM
              changed
          )
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
