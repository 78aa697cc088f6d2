-- remove_card_tag_announcing: REMOVE_TAG.announcing (src/cards). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagId, $3 :callerId, $4 :cardId, $5 :listedOnly, $6 :actor, $7 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      c.team_id,
      c.id,
      c.version,
      (
        SELECT
          COALESCE(array_agg(h.id), '{}')
        FROM
          (
            SELECT
              t.id
            FROM
              tags t
            WHERE
              t.team_id = :teamId
              AND t.id = ANY (ARRAY[:tagId::bigint])
            ORDER BY
              t.id
            FOR KEY SHARE
          ) h
      ) AS held_tags,
      EXISTS (
        SELECT
          1
        FROM
          card_members m
        WHERE
          m.team_id = :teamId
          AND m.card_id = c.id
          AND m.user_id = :callerId
      ) AS caller_is_member
    FROM
      cards c
    WHERE
      c.team_id = :teamId
      AND c.id = :cardId
    FOR NO KEY UPDATE
  ),
  planned AS MATERIALIZED (
    SELECT
      team_id,
      id,
      now() AS now
    FROM
      target
    WHERE
      (
        caller_is_member
        OR NOT :listedOnly::boolean
      )
      AND cardinality(held_tags) = 1
  ),
  removed AS (
    DELETE FROM card_tags n USING planned a
    WHERE
      n.team_id = :teamId
      AND n.card_id = a.id
      AND n.tag_id = ANY (ARRAY[:tagId::bigint])
    RETURNING
      n.tag_id
  ),
  stamped AS (
    UPDATE cards c
    SET
      time_updated = a.now,
      updated_by = :actor::jsonb,
      version = c.version + 1
    FROM
      planned a
    WHERE
      c.team_id = :teamId
      AND c.id = a.id
      AND EXISTS (
        SELECT
          1
        FROM
          removed
      )
  ),
  result AS (
    SELECT
      r.*,
      TRUE AS holds_key,
      FALSE AS subscribed
    FROM
      (
        SELECT
          card.caller_is_member,
          cardinality(card.held_tags) = 1 AS tag_exists,
          (
            card.version + CASE
              WHEN EXISTS (
                SELECT
                FROM
                  removed
              ) THEN 1
              ELSE 0
            END
          )::text AS version,
          EXISTS (
            SELECT
            FROM
              planned
          ) AS removes
        FROM
          target card
      ) r
  ),
  event_rows AS MATERIALIZED (
    SELECT
      e.*
    FROM
      (
        SELECT
          'card.tags_removed' AS type,
          'card' AS resource_type,
          a.id::text AS resource_id,
          :actor::jsonb AS actor,
          jsonb_build_object(
            'card_id',
            a.id::text,
            'tag_ids',
            (
              SELECT
                jsonb_agg(n.tag_id::text)
              FROM
                removed n
            )
          ) AS resource,
          NULL::jsonb AS previous
        FROM
          planned a
        WHERE
          EXISTS (
            SELECT
              1
            FROM
              removed
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
