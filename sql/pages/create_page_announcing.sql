-- create_page_announcing: CREATE_PAGE.announcing (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :projectId, $3 :parentId, $4 :sortKey, $5 :title, $6 :font, $7 :icon, $8 :cover, $9 :content, $10 :schema, $11 :isPublic, $12 :publicUrl, $13 :robots, $14 :hideTableOfContents, $15 :hideSubpages, $16 :callerId, $17 :actor, $18 :position, $19 :traceParent
WITH
  planned AS MATERIALIZED (
    SELECT
      :teamId::text AS team_id,
      :projectId::text AS project_id,
      :parentId::bigint AS parent_id,
      :sortKey::text AS sort_key,
      :title::text AS title,
      :font::text AS font,
      :icon::jsonb AS icon,
      :cover::jsonb AS cover_image,
      :content::text AS content,
      :schema::int AS schema,
      :isPublic::boolean AS is_public,
      :publicUrl::text AS public_url,
      :robots::TEXT[] AS public_robots,
      :hideTableOfContents::boolean AS hide_table_of_contents,
      :hideSubpages::boolean AS hide_subpages,
      now() AS now
  ),
  allocated AS (
    INSERT INTO
      id_counters AS k (team_id, kind, last_id, last_count)
    SELECT
      :teamId,
      'page',
      COALESCE(
        (
          SELECT
            max(x.id)
          FROM
            pages x
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
      pages AS p (
        team_id,
        id,
        project_id,
        parent_id,
        sort_key,
        title,
        font,
        icon,
        cover_image,
        content,
        schema,
        owner_id,
        created_by,
        updated_by,
        is_public,
        public_url,
        public_robots,
        hide_table_of_contents,
        hide_subpages,
        time_created,
        time_updated
      )
    SELECT
      n.team_id,
      k.first_id,
      n.project_id,
      n.parent_id,
      n.sort_key,
      n.title,
      n.font,
      n.icon,
      n.cover_image,
      n.content,
      n.schema,
      :callerId,
      :actor::jsonb,
      :actor::jsonb,
      n.is_public,
      n.public_url,
      n.public_robots,
      n.hide_table_of_contents,
      n.hide_subpages,
      n.now,
      n.now
    FROM
      planned n,
      allocated k
    RETURNING
      ROW (p.*)::pages AS page
  ),
  creators AS (
    INSERT INTO
      page_members (team_id, page_id, user_id, role, assigned_at)
    SELECT
      :teamId,
      (i.page).id,
      :callerId,
      'admin',
      (i.page).time_created
    FROM
      inserted i
    RETURNING
      page_id,
      user_id,
      role,
      assigned_at
  ),
  result AS (
    SELECT
      r.*,
      TRUE AS holds_key,
      FALSE AS subscribed
    FROM
      (
        SELECT
          v.*
        FROM
          (
            SELECT
          ) one
          LEFT JOIN (
            SELECT
              p.id::text,
              p.alias_id::text,
              p.title,
              p.font,
              p.icon,
              p.content,
              p.schema,
              p.project_id,
              p.standalone,
              p.cover_image,
              p.owner_id,
              p.created_by,
              p.updated_by,
              p.team_id,
              p.is_public,
              p.public_url,
              p.public_robots,
              p.hide_table_of_contents,
              p.hide_subpages,
              p.parent_id::text AS parent_id,
              p.version::text AS version,
              floor(
                extract(
                  epoch
                  FROM
                    p.time_created
                ) * 1000
              )::bigint::float8 AS time_created,
              floor(
                extract(
                  epoch
                  FROM
                    p.time_updated
                ) * 1000
              )::bigint::float8 AS time_updated,
              COALESCE(
                (
                  SELECT
                    json_agg(
                      json_build_object(
                        'user_id',
                        m.user_id,
                        'assigned_date',
                        floor(
                          extract(
                            epoch
                            FROM
                              m.assigned_at
                          ) * 1000
                        )::bigint,
                        'role',
                        m.role
                      )
                    )
                  FROM
                    creators m
                  WHERE
                    m.page_id = p.id
                ),
                '[]'
              ) AS members,
              EXISTS (
                SELECT
                  1
                FROM
                  page_members m
                WHERE
                  m.team_id = :teamId
                  AND m.page_id = p.id
                  AND m.user_id = :callerId
              ) AS caller_is_member,
              EXISTS (
                SELECT
                  1
                FROM
                  page_bookmarks b
                WHERE
                  b.team_id = :teamId
                  AND b.page_id = p.id
                  AND b.user_id = :callerId
              ) AS is_bookmarked,
              EXISTS (
                SELECT
                  1
                FROM
                  page_watchers w
                WHERE
                  w.team_id = :teamId
                  AND w.page_id = p.id
                  AND w.user_id = :callerId
              ) AS is_watching,
              (
                SELECT
                  count(*)
                FROM
                  page_comments c
                WHERE
                  c.team_id = :teamId
                  AND c.page_id = p.id
              )::int AS total_comments,
              a.archived_by,
              floor(
                extract(
                  epoch
                  FROM
                    a.time_archived
                ) * 1000
              )::bigint::float8 AS time_archived,
              a.former_parent_id::text AS former_parent_id,
              CASE
                WHEN a.archived_by IS NULL THEN COALESCE(
                  p.known_position,
                  (
                    SELECT
                      (
                        SELECT
                          COALESCE(sum(b.size), 0)
                        FROM
                          page_sibling_blocks b
                        WHERE
                          b.team_id = :teamId
                          AND b.project_id = p.project_id
                          AND b.parent_key = COALESCE(p.parent_id, -1)
                          AND b.lower_key < mine.lower_key
                      ) + (
                        SELECT
                          count(*)
                        FROM
                          pages s
                        WHERE
                          s.team_id = :teamId
                          AND s.project_id = p.project_id
                          AND COALESCE(s.parent_id, -1) = COALESCE(p.parent_id, -1)
                          AND s.sort_key >= mine.lower_key
                          AND s.sort_key < p.sort_key
                      )
                    FROM
                      (
                        SELECT
                          max(b.lower_key) AS lower_key
                        FROM
                          page_sibling_blocks b
                        WHERE
                          b.team_id = :teamId
                          AND b.project_id = p.project_id
                          AND b.parent_key = COALESCE(p.parent_id, -1)
                          AND b.lower_key <= p.sort_key
                      ) mine
                  )::int
                )
              END AS position
            FROM
              (
                SELECT
                  (i.page).*,
                  :position::int AS known_position
                FROM
                  inserted i
              ) p
              LEFT JOIN page_archives a ON a.team_id = :teamId
              AND a.page_id = p.id
          ) v ON TRUE
      ) r
  ),
  event_rows AS MATERIALIZED (
    SELECT
      e.*
    FROM
      (
        SELECT
          'page.created' AS type,
          'page' AS resource_type,
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
