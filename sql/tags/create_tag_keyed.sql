-- create_tag_keyed: CREATE_TAG.keyed (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :idempotencyKey, $4 :keyClaim, $5 :projectId, $6 :name, $7 :slug, $8 :color, $9 :actor, $10 :traceParent
WITH
  key_held AS MATERIALIZED (
    SELECT
      k.claim
    FROM
      idempotency_keys k
    WHERE
      TRUE
      AND k.team_id = :teamId
      AND k.user_id = :callerId::text
      AND k.key = :idempotencyKey::text
      AND k.claim = :keyClaim::uuid
    FOR NO KEY UPDATE OF
      k
  ),
  project AS MATERIALIZED (
    SELECT
      :projectId::text IS NULL
      OR EXISTS (
        SELECT
          1
        FROM
          projects p
        WHERE
          p.team_id = :teamId
          AND p.id = :projectId::text
      ) AS found
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        SELECT
          :teamId::text AS team_id,
          :projectId::text AS project_id,
          :name::text AS name,
          :slug::text AS slug,
          :color::text AS color
        FROM
          project
        WHERE
          found
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
  allocated AS (
    INSERT INTO
      id_counters AS k (team_id, kind, last_id, last_count)
    SELECT
      :teamId,
      'tag',
      COALESCE(
        (
          SELECT
            max(x.id)
          FROM
            tags x
          WHERE
            x.team_id = :teamId
        ),
        0
      ) + n.count,
      n.count
    FROM
      (
        SELECT
          (
            SELECT
              count(*)
            FROM
              planned
          ) AS count
      ) n
    ON CONFLICT (team_id, kind) DO UPDATE
    SET
      last_id = greatest(k.last_id, EXCLUDED.last_id - EXCLUDED.last_count) + EXCLUDED.last_count,
      last_count = EXCLUDED.last_count
    RETURNING
      k.last_id - k.last_count + 1 AS first_id,
      k.last_id AS last_id
  ),
  inserted AS (
    INSERT INTO
      tags AS t (team_id, id, project_id, name, slug, color)
    SELECT
      n.team_id,
      k.first_id,
      n.project_id,
      n.name,
      n.slug,
      n.color
    FROM
      planned n,
      allocated k
    ON CONFLICT DO NOTHING
    RETURNING
      t.*
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
          (
            SELECT
              found
            FROM
              project
          ) AS project_found,
          EXISTS (
            SELECT
            FROM
              planned
          )
          AND NOT EXISTS (
            SELECT
            FROM
              inserted
          ) AS taken,
          v.*
        FROM
          (
            SELECT
          ) one
          LEFT JOIN (
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
              t.version::text AS version
            FROM
              inserted t
          ) v ON TRUE
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) AS answer
    FROM
      result r
    WHERE
      (r.id IS NOT NULL)
      AND r.holds_key
  ),
  kept AS (
    UPDATE idempotency_keys k
    SET
      status = 201,
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
          'tag.created' AS type,
          'tag' AS resource_type,
          r.id AS resource_id,
          :actor::jsonb AS actor,
          to_jsonb(r) AS resource,
          NULL::jsonb AS previous
        FROM
          result r
        WHERE
          r.id IS NOT NULL
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
