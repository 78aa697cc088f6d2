-- update_tag_keyed: UPDATE_TAG.keyed (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId, $3 :callerId, $4 :idempotencyKey, $5 :keyClaim, $6 :name, $7 :slug, $8 :color, $9 :actor, $10 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      t AS tag
    FROM
      tags t
    WHERE
      t.team_id = :teamId
      AND t.id = :tagId
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
          (x.tag).id,
          COALESCE(:name::text, (x.tag).name) AS name,
          COALESCE(:slug::text, (x.tag).slug) AS slug,
          COALESCE(:color::text, (x.tag).color) AS color,
          EXISTS (
            SELECT
              1
            FROM
              tags o
            WHERE
              o.team_id = :teamId
              AND o.id <> (x.tag).id
              AND o.project_id IS NOT DISTINCT FROM (x.tag).project_id
              AND o.name_key = simple_lowercase (:name::text) COLLATE "C"
          ) AS taken
        FROM
          target x
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
    UPDATE tags t
    SET
      name = n.name,
      slug = n.slug,
      color = n.color,
      version = t.version + 1
    FROM
      planned n
    WHERE
      t.team_id = :teamId
      AND t.id = n.id
      AND NOT n.taken
      AND (n.name, n.slug, n.color) IS DISTINCT FROM (t.name, t.slug, t.color)
    RETURNING
      t AS tag
  ),
  written AS (
    SELECT
      tag
    FROM
      changed
    UNION ALL
    SELECT
      tag
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
          COALESCE(
            (
              SELECT
                taken
              FROM
                planned
            ),
            FALSE
          ) AS taken
        FROM
          (
            SELECT
              (w.tag).*
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
      (NOT r.taken)
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
          'tag.updated' AS type,
          'tag' AS resource_type,
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
                    to_jsonb(x.tag)
                  FROM
                    target x
                )
              ) b
            WHERE
              b.value IS DISTINCT FROM (
                SELECT
                  to_jsonb(c.tag)
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
