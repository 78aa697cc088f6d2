-- delete_template_keyed: DELETE_TEMPLATE.keyed (src/notes). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :templateId, $3 :callerId, $4 :idempotencyKey, $5 :keyClaim, $6 :actor, $7 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      t.team_id,
      t.id,
      t.owner_id
    FROM
      note_templates t
    WHERE
      t.team_id = :teamId
      AND t.id = :templateId
    FOR UPDATE
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
          x.id
        FROM
          target x
        WHERE
          x.owner_id = :callerId::text
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
  deleted AS (
    DELETE FROM note_templates t USING planned d
    WHERE
      t.team_id = :teamId
      AND t.id = d.id
    RETURNING
      t.id
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
          x.owner_id,
          EXISTS (
            SELECT
              1
            FROM
              deleted
          ) AS deleted
        FROM
          target x
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) AS answer
    FROM
      result r
    WHERE
      (r.deleted)
      AND r.holds_key
  ),
  kept AS (
    UPDATE idempotency_keys k
    SET
      status = 204,
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
          'note_template.deleted' AS type,
          'note_template' AS resource_type,
          d.id AS resource_id,
          :actor::jsonb AS actor,
          jsonb_build_object('note_template_id', d.id) AS resource,
          NULL::jsonb AS previous
        FROM
          deleted d
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
