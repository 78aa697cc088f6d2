-- delete_page_announcing: DELETE_PAGE.announcing (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :pageId, $3 :lockedProjects, $4 :actor, $5 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      p.id
    FROM
      pages p
    WHERE
      p.team_id = :teamId
      AND p.id = :pageId
    FOR UPDATE OF
      p
  ),
  doomed AS MATERIALIZED (
    SELECT
      *
    FROM
      (
        WITH RECURSIVE
          doomed AS (
            SELECT
              p.id,
              p.project_id,
              0 AS depth
            FROM
              pages p
            WHERE
              p.team_id = :teamId
              AND p.id = :pageId
            UNION ALL
            SELECT
              k.id,
              k.project_id,
              d.depth + 1
            FROM
              doomed d
              JOIN LATERAL (
                SELECT
                  c.id,
                  c.project_id
                FROM
                  pages c
                WHERE
                  c.team_id = :teamId
                  AND c.parent_id = d.id
                UNION ALL
                SELECT
                  x.id,
                  x.project_id
                FROM
                  page_archives a
                  JOIN pages x ON x.team_id = :teamId
                  AND x.id = a.page_id
                WHERE
                  a.team_id = :teamId
                  AND a.former_parent_id = d.id
                  AND a.archive_root_id = a.page_id
              ) k ON TRUE
          )
        SELECT
          *
        FROM
          doomed
      ) doomed
  ),
  unlocked AS MATERIALIZED (
    SELECT
      EXISTS (
        SELECT
          1
        FROM
          doomed d
        WHERE
          d.project_id <> ALL (:lockedProjects::TEXT[])
      ) AS stale
  ),
  planned AS MATERIALIZED (
    SELECT
      t.id,
      now() AS now
    FROM
      target t,
      unlocked u
    WHERE
      NOT u.stale
  ),
  deleted AS (
    DELETE FROM pages x
    WHERE
      x.team_id = :teamId
      AND x.id = ANY (
        ARRAY(
          SELECT
            d.id
          FROM
            doomed d
        )
      )
      AND EXISTS (
        SELECT
          1
        FROM
          planned
      )
    RETURNING
      x.id
  ),
  retired AS (
    INSERT INTO
      id_counters AS k (team_id, kind, last_id)
    SELECT
      :teamId,
      'page',
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
            AND c.kind = 'page'
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
          :pageId::text AS page_id,
          ARRAY(
            SELECT
              x.id::text
            FROM
              deleted x
              JOIN doomed d ON d.id = x.id
            ORDER BY
              d.depth,
              x.id
          ) AS deleted_page_ids,
          (
            SELECT
              u.stale
            FROM
              unlocked u
          ) AS stale
      ) r
  ),
  event_rows AS MATERIALIZED (
    SELECT
      e.*
    FROM
      (
        SELECT
          'page.deleted' AS type,
          'page' AS resource_type,
          r.page_id AS resource_id,
          :actor::jsonb AS actor,
          jsonb_build_object('page_id', r.page_id, 'deleted_page_ids', r.deleted_page_ids) AS resource,
          NULL::jsonb AS previous
        FROM
          result r
        WHERE
          cardinality(r.deleted_page_ids) > 0
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
