/**
 * Every statement the floor sends, each a named prepared statement (planned once per connection).
 * Written here on purpose rather than taken from src/: this is the least SQL a correct answer needs.
 */
export interface Statement {
  name: string;
  text: string;
}

const statement = (name: string, text: string): Statement => ({ name: `floor_${name}`, text });

export const BEGIN = statement('begin', 'BEGIN');
export const COMMIT = statement('commit', 'COMMIT');
export const ROLLBACK = statement('rollback', 'ROLLBACK');

/** The token by the SHA-256 of its secret, with its member's role, and the actor to stamp writes with. $1 hash. */
export const AUTHENTICATE = statement(
  'authenticate',
  `
  SELECT t.team_id, t.user_id, m.role, (jsonb_build_object('user_id', t.user_id) || t.actor)::text AS actor
    FROM tokens t JOIN members m ON m.team_id = t.team_id AND m.user_id = t.user_id
   WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())`,
);

/** A template the caller $3 may see: its own, a built-in one or a shared one. */
export const READ_TEMPLATE = statement(
  'read_template',
  `
  SELECT * FROM note_templates WHERE team_id = $1 AND id = $2 AND (owner_id = $3 OR owner_id IS NULL OR is_shared)`,
);

/** Only its owner $3 renames a template. $4 title, $5 actor. */
export const RENAME_TEMPLATE = statement(
  'rename_template',
  `
  UPDATE note_templates SET title = $4, updated_by = $5::jsonb, time_updated = now()
   WHERE team_id = $1 AND id = $2 AND owner_id = $3
  RETURNING *`,
);

export const READ_PAGE = statement('read_page', `SELECT * FROM pages WHERE team_id = $1 AND id = $2`);

/** $3 title, $4 actor. */
export const RENAME_PAGE = statement(
  'rename_page',
  `
  UPDATE pages SET title = $3, updated_by = $4::jsonb, time_updated = now() WHERE team_id = $1 AND id = $2 RETURNING *`,
);

/** A card with its tags in the order attached (ids as text: a bigint does not survive a JSON number). */
export const READ_CARD = statement(
  'read_card',
  `
  SELECT c.*, COALESCE((SELECT json_agg(json_build_object('id', t.id::text, 'project_id', t.project_id, 'name', t.name,
                                                          'slug', t.slug, 'color', t.color)
                                        ORDER BY ct.attached_seq)
                          FROM card_tags ct JOIN tags t ON t.team_id = ct.team_id AND t.id = ct.tag_id
                         WHERE ct.team_id = c.team_id AND ct.card_id = c.id), '[]') AS tags
    FROM cards c WHERE c.team_id = $1 AND c.id = $2`,
);

/**
 * Attaches tags $3 (distinct ids, in order) that the card's project may use; pairs already there stay.
 * Answers the ids newly attached, and how many ids named such a tag: fewer than given means an unknown
 * id (or no card), and the caller rolls back.
 */
export const ATTACH_TAGS = statement(
  'attach_tags',
  `
  WITH usable AS MATERIALIZED (
    SELECT t.id, w.n
      FROM unnest($3::bigint[]) WITH ORDINALITY AS w(id, n)
      JOIN cards c ON c.team_id = $1 AND c.id = $2
      JOIN tags t ON t.team_id = $1 AND t.id = w.id AND (t.project_id IS NULL OR t.project_id = c.project_id)
  ), attached AS (
    INSERT INTO card_tags (team_id, card_id, tag_id) SELECT $1, $2, id FROM usable ORDER BY n ON CONFLICT DO NOTHING
    RETURNING tag_id
  )
  SELECT count(*)::int AS usable, ARRAY(SELECT tag_id::text FROM attached) AS attached FROM usable`,
);

/**
 * Takes the advisory lock of page $2's project and of project $3 (null: none), in byte order so two
 * movers never deadlock; the same keys as the service's, so the two exclude each other too. Answers
 * the projects locked (none: no such page).
 */
export const LOCK_PROJECTS = statement(
  'lock_projects',
  `
  SELECT l.project_id, pg_advisory_xact_lock(hashtextextended($1 || '/' || l.project_id, 0))
    FROM (SELECT DISTINCT x COLLATE "C" AS project_id
            FROM pages p, unnest(ARRAY[p.project_id, $3::text]) AS x
           WHERE p.team_id = $1 AND p.id = $2 AND x IS NOT NULL
           ORDER BY 1) l`,
);

/**
 * Run under the lock, so it reads what the last holder committed: page $2's project and the sort keys
 * around index $4 among the siblings it goes to (the root of project $3 when that is another project,
 * else its own siblings), the page left out: `keys`, the two from index $4 - 1 (from 0 when $4 is 0),
 * and `last`. The index is found through page_sibling_blocks (sizes of runs of siblings, kept by the
 * schema's triggers): the block that holds it, then a walk inside that block. No row: no such page.
 */
export const NEIGHBOUR_KEYS = statement(
  'neighbour_keys',
  `
  WITH me AS MATERIALIZED (
    SELECT project_id,
           COALESCE($3::text, project_id) AS to_project,
           CASE WHEN $3::text IS NULL OR $3::text = project_id THEN COALESCE(parent_id, -1) ELSE -1 END AS to_parent,
           CASE WHEN $3::text IS NULL OR $3::text = project_id THEN sort_key END AS own_key
      FROM pages WHERE team_id = $1 AND id = $2
  ), counted AS (
    SELECT b.lower_key,
           sum(b.size) OVER w - CASE WHEN me.own_key IS NOT NULL
                                      AND (lead(b.lower_key) OVER w IS NULL OR me.own_key < lead(b.lower_key) OVER w)
                                     THEN 1 ELSE 0 END AS through
      FROM me JOIN page_sibling_blocks b
        ON b.team_id = $1 AND b.project_id = me.to_project AND b.parent_key = me.to_parent
    WINDOW w AS (ORDER BY b.lower_key)
  ), start AS (
    SELECT lower_key, skip
      FROM (SELECT lower_key, through,
                   GREATEST($4::bigint - 1, 0) - COALESCE(lag(through) OVER (ORDER BY lower_key), 0) AS skip
              FROM counted) c
     WHERE through > GREATEST($4::bigint - 1, 0)
     ORDER BY lower_key LIMIT 1
  )
  SELECT me.project_id,
         ARRAY(SELECT p.sort_key FROM pages p
                WHERE p.team_id = $1 AND p.project_id = me.to_project AND COALESCE(p.parent_id, -1) = me.to_parent
                  AND p.sort_key IS NOT NULL AND p.id <> $2 AND p.sort_key >= (SELECT lower_key FROM start)
                ORDER BY p.sort_key OFFSET (SELECT skip FROM start) LIMIT 2) AS keys,
         (SELECT p.sort_key FROM pages p
           WHERE p.team_id = $1 AND p.project_id = me.to_project AND COALESCE(p.parent_id, -1) = me.to_parent
             AND p.sort_key IS NOT NULL AND p.id <> $2
           ORDER BY p.sort_key DESC LIMIT 1) AS last
    FROM me`,
);

/** Page $2 takes sort key $3 among its siblings. $4 actor. */
export const REORDER_PAGE = statement(
  'reorder_page',
  `
  UPDATE pages SET sort_key = $3, updated_by = $4::jsonb, time_updated = now()
   WHERE team_id = $1 AND id = $2 RETURNING *`,
);

/**
 * Page $2 goes to the root of project $3 with sort key $4, its subpages with it. Answers the page. $5
 * actor. The subtree as an array, so the rows are found by key: the planner guesses a recursive CTE
 * large and would hash-join it with every page of the workspace.
 */
export const MOVE_PAGE = statement(
  'move_page',
  `
  WITH RECURSIVE subtree AS (
    SELECT id FROM pages WHERE team_id = $1 AND id = $2
    UNION ALL
    SELECT c.id FROM pages c JOIN subtree s ON c.team_id = $1 AND c.parent_id = s.id
  ), moved AS (
    UPDATE pages p
       SET project_id = $3,
           parent_id = CASE WHEN p.id = $2 THEN NULL ELSE p.parent_id END,
           sort_key = CASE WHEN p.id = $2 THEN $4 ELSE p.sort_key END,
           updated_by = CASE WHEN p.id = $2 THEN $5::jsonb ELSE p.updated_by END,
           time_updated = CASE WHEN p.id = $2 THEN now() ELSE p.time_updated END
     WHERE p.team_id = $1 AND p.id = ANY (ARRAY(SELECT id FROM subtree))
    RETURNING p.*
  )
  SELECT * FROM moved WHERE id = $2`,
);

/** The advisory lock of project $2 (the service's key): the new page's siblings hold still. */
export const LOCK_PROJECT = statement(
  'lock_project',
  `SELECT pg_advisory_xact_lock(hashtextextended($1 || '/' || $2, 0))`,
);

/** Under that lock: the last sort key at the root of project $2 (a create goes last), and whether it exists. */
export const LAST_ROOT_KEY = statement(
  'last_root_key',
  `
  SELECT EXISTS (SELECT 1 FROM projects WHERE team_id = $1 AND id = $2) AS exists,
         (SELECT sort_key FROM pages
           WHERE team_id = $1 AND project_id = $2 AND COALESCE(parent_id, -1) = -1 AND sort_key IS NOT NULL
           ORDER BY sort_key DESC LIMIT 1) AS last`,
);

/**
 * A new page: the workspace's next id (counted past every id used, never reused, as the service's
 * id_counters), the page at parent $3 (null: root) of project $2 with key $4, title $5, content $6, schema $7,
 * font $8, display options $9/$10, and its creator $11 (actor $12) as its one member. Answers the page.
 */
export const INSERT_PAGE = statement(
  'insert_page',
  `
  WITH k AS (
    INSERT INTO id_counters AS c (team_id, kind, last_id)
    VALUES ($1, 'page', COALESCE((SELECT max(id) FROM pages WHERE team_id = $1), 0) + 1)
    ON CONFLICT (team_id, kind) DO UPDATE SET last_id = c.last_id + 1
    RETURNING last_id
  ), p AS (
    INSERT INTO pages (team_id, id, project_id, parent_id, sort_key, title, content, schema, font,
                       hide_table_of_contents, hide_subpages, owner_id, created_by, updated_by)
    SELECT $1, k.last_id, $2, $3::bigint, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $12::jsonb FROM k
    RETURNING *
  ), m AS (
    INSERT INTO page_members (team_id, page_id, user_id, role) SELECT team_id, id, owner_id, 'admin' FROM p
  )
  SELECT * FROM p`,
);

/** Under the original's project lock: page $2 and the key of the sibling after it (a copy lands between). */
export const COPY_SOURCE = statement(
  'copy_source',
  `
  SELECT o.*, (SELECT min(s.sort_key) FROM pages s
                WHERE s.team_id = $1 AND s.project_id = o.project_id
                  AND COALESCE(s.parent_id, -1) = COALESCE(o.parent_id, -1) AND s.sort_key > o.sort_key) AS next_key
    FROM pages o WHERE o.team_id = $1 AND o.id = $2 AND o.sort_key IS NOT NULL`,
);

/**
 * `--webhook` (announcer.ts): an event row per webhook until it is delivered, and a row per attempt. The
 * body is stored as sent; the log's rows are found by their webhook. What an earlier run on the same
 * database left queued is dropped, or the settle would wait for it.
 */
export const CREATE_OUTBOX = statement(
  'create_outbox',
  `
  CREATE TABLE IF NOT EXISTS floor_webhook_events (
    id bigserial PRIMARY KEY, team_id text NOT NULL, webhook_id bigint NOT NULL, type text NOT NULL,
    resource_key text NOT NULL, body text NOT NULL);
  CREATE TABLE IF NOT EXISTS floor_webhook_attempts (
    team_id text NOT NULL, webhook_id bigint NOT NULL, event_id bigint NOT NULL, type text NOT NULL,
    attempt int NOT NULL, status int, time timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (team_id, webhook_id, event_id, attempt));
  TRUNCATE floor_webhook_events`,
);

/** Queues body $4 of event type $3 for each webhook of workspace $1 that takes it. $2 the resource. */
export const QUEUE_EVENT = statement(
  'queue_event',
  `
  INSERT INTO floor_webhook_events (team_id, webhook_id, type, resource_key, body)
  SELECT $1, w.id, $3, $2, $4 FROM webhooks w WHERE w.team_id = $1 AND w.events && ARRAY[$3, '*']
  RETURNING id::text, webhook_id::text`,
);

export const READ_WEBHOOK = statement('read_webhook', `SELECT url, secret FROM webhooks WHERE id = $1`);

/** Events $1 were delivered with statuses $2: logged as first attempts, and no longer queued. */
export const LOG_DELIVERED = statement(
  'log_delivered',
  `
  WITH delivered AS (
    DELETE FROM floor_webhook_events e WHERE e.id = ANY ($1::bigint[]) RETURNING e.team_id, e.webhook_id, e.id, e.type
  )
  INSERT INTO floor_webhook_attempts (team_id, webhook_id, event_id, type, attempt, status)
  SELECT d.team_id, d.webhook_id, d.id, d.type, 1, s.status
    FROM delivered d JOIN unnest($1::bigint[], $2::int[]) AS s(id, status) ON s.id = d.id`,
);

/**
 * Takes tag $3 off card $2 (the card's version moves when it was there). Answers whether the card and
 * the tag exist (either missing is a 404) and whether the pair was removed.
 */
export const REMOVE_TAG = statement(
  'remove_tag',
  `
  WITH removed AS (DELETE FROM card_tags WHERE team_id = $1 AND card_id = $2 AND tag_id = $3 RETURNING tag_id),
  bumped AS (
    UPDATE cards SET version = version + 1 WHERE team_id = $1 AND id = $2 AND EXISTS (SELECT FROM removed)
    RETURNING id
  )
  SELECT EXISTS (SELECT FROM cards WHERE team_id = $1 AND id = $2) AS card,
         EXISTS (SELECT FROM tags WHERE team_id = $1 AND id = $3) AS tag,
         EXISTS (SELECT FROM bumped) AS removed`,
);

/** 100 workspace-wide tags after ($2 name key, $3 id), by name ignoring case then id; no card counts. */
export const LIST_TAGS = statement(
  'list_tags',
  `
  SELECT id::text, team_id, project_id, name, slug, color, name_key FROM tags
   WHERE team_id = $1 AND project_id IS NULL AND (name_key, id) > ($2::text, $3::bigint)
   ORDER BY name_key, id LIMIT $4`,
);

/**
 * A shared, active page by its alias ($1): the directory of shared pages (migration 0015) gives its
 * workspace, as no index of pages leads from an alias alone.
 */
export const READ_PUBLIC_PAGE = statement(
  'read_public_page',
  `
  SELECT p.team_id, p.id, p.version, p.title, p.font, p.content, p.public_robots
    FROM public_page_aliases d JOIN pages p ON p.team_id = d.team_id AND p.id = d.page_id AND p.alias_id = d.alias_id
   WHERE d.alias_id = $1 AND p.is_public
     AND NOT EXISTS (SELECT 1 FROM page_archives a WHERE a.team_id = p.team_id AND a.page_id = p.id)
   LIMIT 1`,
);

/**
 * The first page under (project $p, parent $q) after key $k in the tree as of the walk's snapshot (s.s): a
 * page there now, made before the snapshot and not moved since, or a page whose first move since left
 * from there (a deletion is a move). What a walk needs to list every page once while others write
 * (docs/page-list.md); a page archived or deleted since is stepped through, not listed.
 */
const FLOOR_FIRST_CHILD = (project: string, parent: string, after: string) => `(
  SELECT x.id, x.sort_key FROM (
    (SELECT c.id, c.sort_key FROM pages c
      WHERE c.team_id = $1 AND c.project_id = ${project} AND COALESCE(c.parent_id, -1) = ${parent}
        AND c.sort_key IS NOT NULL AND c.sort_key > ${after}
        AND pg_visible_in_snapshot(c.created_xid, (SELECT s FROM snap))
        AND NOT EXISTS (SELECT 1 FROM page_moves m WHERE m.team_id = $1 AND m.page_id = c.id
                                                     AND NOT pg_visible_in_snapshot(m.xid, (SELECT s FROM snap)))
      ORDER BY c.sort_key LIMIT 1)
    UNION ALL
    (SELECT m.page_id, m.old_sort_key FROM page_moves m
      WHERE m.team_id = $1 AND m.old_project_id = ${project} AND m.old_parent_key = ${parent}
        AND m.old_sort_key IS NOT NULL AND m.old_sort_key > ${after}
        AND NOT pg_visible_in_snapshot(m.xid, (SELECT s FROM snap))
        AND NOT EXISTS (SELECT 1 FROM page_moves e WHERE e.team_id = $1 AND e.page_id = m.page_id AND e.id < m.id
                                                     AND NOT pg_visible_in_snapshot(e.xid, (SELECT s FROM snap)))
        AND (EXISTS (SELECT 1 FROM pages c WHERE c.team_id = $1 AND c.id = m.page_id
                                            AND pg_visible_in_snapshot(c.created_xid, (SELECT s FROM snap)))
             OR EXISTS (SELECT 1 FROM page_moves g
                         WHERE g.team_id = $1 AND g.page_id = m.page_id
                           AND pg_visible_in_snapshot(g.deleted_created_xid, (SELECT s FROM snap))))
      ORDER BY m.old_sort_key LIMIT 1)
  ) x ORDER BY x.sort_key LIMIT 1)`;

/**
 * $6 active pages in tree order after a path ($3 project, $4 ids, $5 sort keys of the last page and its
 * ancestors) as of snapshot $2 (null: now), one index probe a step; the page's own columns without its
 * content, and the path to resume from. No members, bookmarks, watchers, comments or position.
 */
export const WALK_PAGES = statement(
  'walk_pages',
  `
  WITH RECURSIVE snap AS (SELECT COALESCE($2::pg_snapshot, pg_current_snapshot()) AS s),
  walk (n, project_id, ids, keys) AS (
    SELECT 0, $3::text, $4::bigint[], $5::text[] COLLATE "C"
    UNION ALL
    SELECT w.n + 1, next.project_id, next.ids, next.keys
      FROM walk w
     CROSS JOIN LATERAL (
       (SELECT w.project_id, w.ids || f.id, w.keys || f.sort_key::text
          FROM ${FLOOR_FIRST_CHILD('w.project_id', 'COALESCE(w.ids[cardinality(w.ids)], -1)', "''")} f)
       UNION ALL
       (SELECT w.project_id, w.ids[1:d.level - 1] || f.id, w.keys[1:d.level - 1] || f.sort_key::text
          FROM generate_series(cardinality(w.ids), 1, -1) d (level)
         CROSS JOIN LATERAL
               ${FLOOR_FIRST_CHILD('w.project_id', 'COALESCE(w.ids[d.level - 1], -1)', 'w.keys[d.level]')} f
         ORDER BY d.level DESC LIMIT 1)
       UNION ALL
       (SELECT pr.id, ARRAY[f.id], ARRAY[f.sort_key::text]
          FROM projects pr CROSS JOIN LATERAL ${FLOOR_FIRST_CHILD('pr.id', '-1', "''")} f
         WHERE pr.team_id = $1 AND pr.id > COALESCE(w.project_id, '')
         ORDER BY pr.id LIMIT 1)
       LIMIT 1
     ) next (project_id, ids, keys)
     WHERE w.n < $6::int
  )
  SELECT (SELECT s FROM snap)::text AS snapshot, w.project_id AS walk_project, w.ids::text[] AS path_ids,
         w.keys AS path_keys, (p.id IS NOT NULL AND a.page_id IS NULL) AS listed,
         p.id::text, p.team_id, p.project_id, p.parent_id::text AS parent_page_id, p.title,
         p.font, p.icon, p.cover_image, p.schema, p.is_public, p.hide_table_of_contents, p.hide_subpages,
         p.created_by, p.updated_by, p.time_created, p.time_updated
    FROM walk w LEFT JOIN pages p ON p.team_id = $1 AND p.id = w.ids[cardinality(w.ids)]
    LEFT JOIN page_archives a ON a.team_id = $1 AND a.page_id = p.id
   WHERE w.n > 0
   ORDER BY w.n`,
);
