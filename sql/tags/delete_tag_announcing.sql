-- delete_tag_announcing: DELETE_TAG.announcing (src/tags). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId, $3 :actor, $4 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      t.team_id,
      t.id
    FROM
      tags t
    WHERE
      t.team_id = :teamId
      AND t.id = :tagId
    FOR UPDATE
  ),
  planned AS MATERIALIZED (
    SELECT
      x.team_id,
      x.id,
      now() AS now
    FROM
      target x
  ),
  unlinked AS (
    DELETE FROM card_tags n USING planned p
    WHERE
      n.team_id = :teamId
      AND n.tag_id = p.id
    RETURNING
      n.card_id
  ),
  stamped AS (
    UPDATE cards c
    SET
      time_updated = p.now,
      updated_by = :actor::jsonb,
      version = c.version + 1
    FROM
      planned p
    WHERE
      c.team_id = :teamId
      AND c.id IN (
        SELECT
          card_id
        FROM
          unlinked
      )
  ),
  deleted AS (
    DELETE FROM tags t USING planned p
    WHERE
      t.team_id = :teamId
      AND t.id = p.id
    RETURNING
      t.id
  ),
  retired AS (
    INSERT INTO
      id_counters AS k (team_id, kind, last_id)
    SELECT
      :teamId,
      'tag',
      m.id
    FROM
      (
        SELECT
          max(d.id) AS id
        FROM
          deleted d
      ) m
    WHERE
      m.id > COALESCE(
        (
          SELECT
            c.last_id
          FROM
            id_counters c
          WHERE
            c.team_id = :teamId
            AND c.kind = 'tag'
        ),
        -1
      )
    ON CONFLICT (team_id, kind) DO UPDATE
    SET
      last_id = greatest(k.last_id, EXCLUDED.last_id)
  ),
  result AS (
    SELECT
      r.*,
      TRUE AS holds_key,
      FALSE AS subscribed
    FROM
      (
        SELECT
          EXISTS (
            SELECT
            FROM
              deleted
          ) AS deleted,
          ARRAY(
            SELECT
              card_id::text
            FROM
              unlinked
            ORDER BY
              card_id
          ) AS card_ids
      ) r
  ),
  event_rows AS MATERIALIZED (
    SELECT
      e.*
    FROM
      (
        SELECT
          'tag.deleted' AS type,
          'tag' AS resource_type,
          d.id::text AS resource_id,
          :actor::jsonb AS actor,
          jsonb_build_object('tag_id', d.id::text, 'card_ids', to_jsonb(r.card_ids)) AS resource,
          NULL::jsonb AS previous
        FROM
          deleted d,
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
