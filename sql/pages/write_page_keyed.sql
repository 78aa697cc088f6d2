-- write_page_keyed: WRITE_PAGE.keyed (src/pages). Written by `npm run sql:snapshot`; do not edit.
-- Parameters: $1 :teamId, $2 :callerId, $3 :pageId, $4 :idempotencyKey, $5 :keyClaim, $6 :title, $7 :font, $8 :setIcon, $9 :icon, $10 :setCover, $11 :cover, $12 :isPublic, $13 :setPublicUrl, $14 :publicUrl, $15 :robots, $16 :hideTableOfContents, $17 :hideSubpages, $18 :moves, $19 :projectId, $20 :parentId, $21 :sortKey, $22 :listedOnly, $23 :unarchivedRoot, $24 :archives, $25 :carriesSubtree, $26 :actor, $27 :position, $28 :collaborationToken, $29 :traceParent
WITH
  target AS MATERIALIZED (
    SELECT
      p AS page,
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
      p.ctid IS DISTINCT FROM (
        SELECT
          q.ctid
        FROM
          pages q
        WHERE
          q.team_id = :teamId
          AND q.id = p.id
      ) AS stale
    FROM
      pages p
    WHERE
      p.team_id = :teamId
      AND p.id = :pageId
    FOR NO KEY UPDATE OF
      p
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
          (t.page).team_id,
          (t.page).id,
          COALESCE(:title::text, (t.page).title) AS title,
          COALESCE(:font::text, (t.page).font) AS font,
          CASE
            WHEN :setIcon::boolean THEN :icon::jsonb
            ELSE (t.page).icon
          END AS icon,
          CASE
            WHEN :setCover::boolean THEN :cover::jsonb
            ELSE (t.page).cover_image
          END AS cover_image,
          COALESCE(:isPublic::boolean, (t.page).is_public) AS is_public,
          CASE
            WHEN :setPublicUrl::boolean THEN :publicUrl::text
            ELSE (t.page).public_url
          END AS public_url,
          COALESCE(:robots::TEXT[], (t.page).public_robots) AS public_robots,
          COALESCE(:hideTableOfContents::boolean, (t.page).hide_table_of_contents) AS hide_table_of_contents,
          COALESCE(:hideSubpages::boolean, (t.page).hide_subpages) AS hide_subpages,
          CASE
            WHEN :moves::boolean THEN :projectId::text
            ELSE (t.page).project_id
          END AS project_id,
          CASE
            WHEN :moves THEN :parentId::bigint
            ELSE (t.page).parent_id
          END AS landing_parent_id,
          CASE
            WHEN :moves THEN :sortKey::text
            ELSE (t.page).sort_key
          END AS landing_sort_key,
          now() AS now
        FROM
          target t
        WHERE
          (
            t.caller_is_member
            OR NOT :listedOnly::boolean
          )
          AND NOT t.stale
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
  subtree AS (
    SELECT
      *
    FROM
      (
        WITH RECURSIVE
          subtree AS (
            SELECT
              id
            FROM
              planned
            UNION ALL
            SELECT
              c.id
            FROM
              pages c
              JOIN subtree s ON c.team_id = :teamId
              AND c.parent_id = s.id
          )
        SELECT
          *
        FROM
          subtree
      ) subtree
  ),
  restored AS (
    SELECT
      *
    FROM
      (
        WITH RECURSIVE
          restored AS (
            SELECT
              a.page_id AS id
            FROM
              page_archives a
              JOIN planned n ON a.team_id = :teamId
              AND a.page_id = n.id
            WHERE
              :unarchivedRoot::bigint IS NOT NULL
            UNION ALL
            SELECT
              c.id
            FROM
              pages c
              JOIN restored r ON c.team_id = :teamId
              AND c.parent_id = r.id
              JOIN page_archives a ON a.team_id = :teamId
              AND a.page_id = c.id
              AND a.archive_root_id = :unarchivedRoot
          )
        SELECT
          *
        FROM
          restored
      ) restored
  ),
  unarchived AS (
    DELETE FROM page_archives
    WHERE
      team_id = :teamId
      AND page_id = ANY (
        ARRAY(
          SELECT
            id
          FROM
            restored
        )
      )
  ),
  archived AS (
    INSERT INTO
      page_archives (team_id, page_id, archive_root_id, former_parent_id, archived_by)
    SELECT
      :teamId,
      c.id,
      n.id,
      CASE
        WHEN c.id = n.id THEN n.landing_parent_id
        ELSE c.parent_id
      END,
      :callerId
    FROM
      planned n
      JOIN pages c ON c.team_id = :teamId
      AND c.id = ANY (
        ARRAY(
          SELECT
            id
          FROM
            subtree
        )
      )
    WHERE
      :archives::boolean
    RETURNING
      page_id,
      archived_by,
      time_archived,
      former_parent_id
  ),
  carried AS (
    UPDATE pages c
    SET
      project_id = n.project_id,
      version = c.version + 1
    FROM
      planned n
    WHERE
      :carriesSubtree::boolean
      AND c.team_id = :teamId
      AND c.id = ANY (
        ARRAY(
          SELECT
            id
          FROM
            subtree
        )
      )
      AND c.id <> n.id
      AND c.project_id <> n.project_id
  ),
  changed AS (
    UPDATE pages p
    SET
      title = n.title,
      font = n.font,
      icon = n.icon,
      cover_image = n.cover_image,
      is_public = n.is_public,
      public_url = n.public_url,
      public_robots = n.public_robots,
      hide_table_of_contents = n.hide_table_of_contents,
      hide_subpages = n.hide_subpages,
      project_id = n.project_id,
      parent_id = CASE
        WHEN :archives THEN NULL
        ELSE n.landing_parent_id
      END,
      sort_key = CASE
        WHEN :archives THEN NULL
        ELSE n.landing_sort_key
      END,
      updated_by = :actor::jsonb,
      time_updated = n.now,
      version = p.version + 1
    FROM
      planned n
    WHERE
      p.team_id = :teamId
      AND p.id = n.id
      AND (
        :moves
        OR :archives
        OR :unarchivedRoot IS NOT NULL
        OR (
          n.title,
          n.font,
          n.icon,
          n.cover_image,
          n.is_public,
          n.public_url,
          n.public_robots,
          n.hide_table_of_contents,
          n.hide_subpages
        ) IS DISTINCT FROM (
          p.title,
          p.font,
          p.icon,
          p.cover_image,
          p.is_public,
          p.public_url,
          p.public_robots,
          p.hide_table_of_contents,
          p.hide_subpages
        )
      )
    RETURNING
      p AS page
  ),
  written AS (
    SELECT
      page
    FROM
      changed
    UNION ALL
    SELECT
      page
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
                  ORDER BY
                    m.assigned_at,
                    m.user_id
                )
              FROM
                page_members m
              WHERE
                m.team_id = :teamId
                AND m.page_id = p.id
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
              :position::int,
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
          END AS position,
          (
            SELECT
              stale
            FROM
              target
          ) AS stale
        FROM
          (
            SELECT
              (w.page).*
            FROM
              written w
          ) p
          LEFT JOIN LATERAL (
            SELECT
              x.archived_by,
              x.time_archived,
              x.former_parent_id
            FROM
              archived x
            WHERE
              x.page_id = p.id
            UNION ALL
            SELECT
              a.archived_by,
              a.time_archived,
              a.former_parent_id
            FROM
              page_archives a
            WHERE
              a.team_id = :teamId
              AND a.page_id = p.id
              AND NOT :archives
              AND :unarchivedRoot IS NULL
          ) a ON TRUE
      ) r
  ),
  kept_answer AS MATERIALIZED (
    SELECT
      to_jsonb(r) || jsonb_build_object('collaboration_token', :collaborationToken::text) AS answer
    FROM
      result r
    WHERE
      (
        (
          r.caller_is_member
          OR NOT :listedOnly
        )
        AND NOT r.stale
      )
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
          CASE
            WHEN :archives THEN 'page.archived'
            WHEN :unarchivedRoot::bigint IS NOT NULL THEN 'page.unarchived'
            ELSE 'page.updated'
          END AS type,
          'page' AS resource_type,
          r.id AS resource_id,
          :actor::jsonb AS actor,
          to_jsonb(r) AS resource,
          (
            SELECT
              (
                SELECT
                  COALESCE(jsonb_object_agg(b.key, b.value), '{}')
                FROM
                  jsonb_each(to_jsonb(o) - 'content' - 'schema') b
                WHERE
                  b.value IS DISTINCT FROM (
                    SELECT
                      to_jsonb(c.page)
                    FROM
                      changed c
                  ) -> b.key
              ) || jsonb_build_object(
                'position',
                CASE
                  WHEN :moves
                  AND o.sort_key IS NOT NULL THEN (
                    SELECT
                      (
                        SELECT
                          COALESCE(sum(b.size), 0)
                        FROM
                          page_sibling_blocks b
                        WHERE
                          b.team_id = :teamId
                          AND b.project_id = o.project_id
                          AND b.parent_key = COALESCE(o.parent_id, -1)
                          AND b.lower_key < mine.lower_key
                      ) + (
                        SELECT
                          count(*)
                        FROM
                          pages s
                        WHERE
                          s.team_id = :teamId
                          AND s.project_id = o.project_id
                          AND COALESCE(s.parent_id, -1) = COALESCE(o.parent_id, -1)
                          AND s.sort_key >= mine.lower_key
                          AND s.sort_key < o.sort_key
                      )
                    FROM
                      (
                        SELECT
                          max(b.lower_key) AS lower_key
                        FROM
                          page_sibling_blocks b
                        WHERE
                          b.team_id = :teamId
                          AND b.project_id = o.project_id
                          AND b.parent_key = COALESCE(o.parent_id, -1)
                          AND b.lower_key <= o.sort_key
                      ) mine
                  )::int
                END
              )
            FROM
              (
                SELECT
                  (t.page).*
                FROM
                  target t
              ) o
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
