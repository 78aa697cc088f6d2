-- attach_tags_keyed: ATTACH_TAGS.keyed (src/cards). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :tagIds, $3 :callerId, $4 :cardId, $5 :idempotencyKey, $6 :keyClaim, $7 :listedOnly, $8 :allStorable, $9 :actor, $10 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      c.team_id,
      c.id,
      c.project_id,
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
              AND t.id = ANY (:tagIds::BIGINT[])
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
  wanted AS MATERIALIZED (
    SELECT
      w.tag_id,
      w.ord,
      t.id IS NOT NULL AS usable
    FROM
      unnest(:tagIds::BIGINT[]) WITH ORDINALITY AS w (tag_id, ord)
      LEFT JOIN target card ON TRUE
      LEFT JOIN tags t ON t.team_id = :teamId
      AND t.id = w.tag_id
      AND t.id = ANY (card.held_tags)
      AND (
        t.project_id IS NULL
        OR t.project_id = card.project_id
      )
  ),
  planned AS MATERIALIZED (
    SELECT
      *
    FROM
      (
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
          AND :allStorable::boolean
          AND NOT EXISTS (
            SELECT
              1
            FROM
              wanted
            WHERE
              NOT usable
          )
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
  attached AS (
    INSERT INTO
      card_tags (team_id, card_id, tag_id)
    SELECT
      :teamId,
      a.id,
      w.tag_id
    FROM
      planned a
      CROSS JOIN wanted w
    ORDER BY
      w.ord
    ON CONFLICT DO NOTHING
    RETURNING
      tag_id
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
          attached
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
          card.caller_is_member,
          ARRAY(
            SELECT
              tag_id::text
            FROM
              wanted
            WHERE
              NOT usable
            ORDER BY
              ord
          ) AS unknown,
          (
            card.version + CASE
              WHEN EXISTS (
                SELECT
                FROM
                  attached
              ) THEN 1
              ELSE 0
            END
          )::text AS version,
          EXISTS (
            SELECT
            FROM
              planned
          ) AS attaches
        FROM
          target card
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) AS answer
    FROM
      result r
    WHERE
      (r.attaches)
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
          'card.tags_added' AS type,
          'card' AS resource_type,
          a.id::text AS resource_id,
          :actor::jsonb AS actor,
          jsonb_build_object(
            'card_id',
            a.id::text,
            'tag_ids',
            (
              SELECT
                jsonb_agg(
                  n.tag_id::text
                  ORDER BY
                    w.ord
                )
              FROM
                attached n
                JOIN wanted w ON w.tag_id = n.tag_id
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
              attached
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
