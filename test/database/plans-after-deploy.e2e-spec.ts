import { Client } from 'pg';
import { poolSettings } from '../../src/database/data-source-options';
import { catalogue } from '../../src/sql-catalogue/catalogue';
import { describeOnOneNode } from '../support/citus';
import { createMigratedDatabase, EmptyDatabase } from '../support/empty-database';
import { executeWithNulls } from '../support/execute-with-nulls';
import { testConfig } from '../support/test-config';

/** The delivery worker's statements: they run on its own pool, planned at each execution (delivery-worker.ts). */
const WORKER_STATEMENTS = [
  'claim_webhook_deliveries',
  'due_webhooks',
  'claim_workspace_deliveries',
  'record_webhook_attempts',
  'workspaces_to_trim',
  'trim_webhook_data',
  'webhook_backlog',
];

/**
 * Every table the request paths read, filled the way a workspace uses them (no ANALYZE after): 10
 * workspaces of 25 members with a token each, 10 projects, 550 pages (50 of them archived) with a member,
 * a bookmark, a watcher, a comment and a move each (a tenth of them shared), 200 templates, 100 tags (and id
 * counters), 200 cards of 10 tags, 625 idempotency keys, 5 webhooks, 500 events delivered to one webhook,
 * with a stream each and an attempt per delivery.
 */
const FILL = `
  INSERT INTO workspaces (id) SELECT 'w' || w FROM generate_series(1, 10) w;
  INSERT INTO users (id) SELECT 'u' || u FROM generate_series(1, 250) u;
  INSERT INTO members (team_id, user_id, role)
  SELECT 'w' || w, 'u' || ((w - 1) * 25 + m), 'member' FROM generate_series(1, 10) w, generate_series(1, 25) m;
  INSERT INTO tokens (team_id, id, user_id, token_hash)
  SELECT team_id, 't' || user_id, user_id, sha256(convert_to(user_id, 'UTF8')) FROM members;
  INSERT INTO projects (team_id, id) SELECT id, 'p' || p FROM workspaces, generate_series(0, 9) p;
  INSERT INTO pages (team_id, id, project_id, parent_id, sort_key, owner_id, created_by, updated_by)
  SELECT 'w' || w, i, 'p' || (i % 10), CASE WHEN i >= 100 THEN (i / 100) * 10 + i % 10 END, lpad(i::text, 8, '0'),
         'u' || ((w - 1) * 25 + 1), '{}', '{}'
    FROM generate_series(1, 10) w, generate_series(0, 499) i;
  INSERT INTO pages (team_id, id, project_id, owner_id, created_by, updated_by)
  SELECT 'w' || w, i, 'p0', 'u' || ((w - 1) * 25 + 1), '{}', '{}'
    FROM generate_series(1, 10) w, generate_series(500, 549) i;
  INSERT INTO page_archives (team_id, page_id, archive_root_id, archived_by)
  SELECT team_id, id, id, owner_id FROM pages WHERE sort_key IS NULL;
  INSERT INTO page_moves (team_id, page_id, old_project_id, old_parent_key, old_sort_key)
  SELECT team_id, id, project_id, COALESCE(parent_id, -1), sort_key || '0' FROM pages WHERE sort_key IS NOT NULL;
  INSERT INTO page_members (team_id, page_id, user_id) SELECT team_id, id, owner_id FROM pages;
  INSERT INTO page_bookmarks (team_id, page_id, user_id) SELECT team_id, id, owner_id FROM pages;
  INSERT INTO page_watchers (team_id, page_id, user_id) SELECT team_id, id, owner_id FROM pages;
  INSERT INTO page_comments (team_id, id, page_id, user_id) SELECT team_id, 'c' || id, id, owner_id FROM pages;
  UPDATE pages SET is_public = true WHERE id % 10 = 0;
  INSERT INTO note_templates (team_id, id, owner_id, title, created_by, updated_by)
  SELECT 'w' || w, 'n' || n, 'u' || ((w - 1) * 25 + 1 + n % 25), 'Template ' || n, '{}', '{}'
    FROM generate_series(1, 10) w, generate_series(1, 200) n;
  INSERT INTO note_template_favourites (team_id, template_id, user_id)
  SELECT team_id, id, owner_id FROM note_templates;
  INSERT INTO tags (team_id, id, project_id, name, slug)
  SELECT id, t, CASE WHEN t % 2 = 0 THEN 'p' || (t % 10) END, 'Tag ' || t, 'tag-' || t
    FROM workspaces, generate_series(1, 100) t;
  INSERT INTO id_counters (team_id, kind, last_id) SELECT id, k, 1000 FROM workspaces, unnest(ARRAY['page', 'tag']) k;
  INSERT INTO cards (team_id, id, project_id, owner_id, created_by, updated_by)
  SELECT 'w' || w, c, 'p' || (c % 10), 'u' || ((w - 1) * 25 + 1), '{}', '{}'
    FROM generate_series(1, 10) w, generate_series(1, 200) c;
  INSERT INTO card_members (team_id, card_id, user_id) SELECT team_id, id, owner_id FROM cards;
  INSERT INTO card_tags (team_id, card_id, tag_id) SELECT team_id, id, t FROM cards, generate_series(1, 100, 10) t;
  INSERT INTO idempotency_keys (team_id, user_id, key, fingerprint, status, answer, expires_at)
  SELECT team_id, user_id, 'k' || k, sha256(convert_to(k::text, 'UTF8')), 200, '{}', now() + interval '1 day'
    FROM members, generate_series(1, 25) k;
  INSERT INTO webhooks (team_id, url, events, secret, created_by)
  SELECT id, 'https://example.com/' || h, ARRAY['*'], 'sealed', '{}' FROM workspaces, generate_series(1, 5) h;
  INSERT INTO webhook_events (team_id, type, resource_type, resource_id, actor, resource)
  SELECT id, 'page.updated', 'page', e::text, '{}', '{}' FROM workspaces, generate_series(1, 500) e;
  INSERT INTO webhook_deliveries (team_id, webhook_id, event_id, resource_key, state)
  SELECT e.team_id, min(h.id), e.id, 'page:' || e.resource_id, 'delivered'
    FROM webhook_events e JOIN webhooks h ON h.team_id = e.team_id GROUP BY e.team_id, e.id;
  INSERT INTO webhook_streams (team_id, webhook_id, resource_key, last_event_id)
  SELECT team_id, webhook_id, resource_key, max(event_id) FROM webhook_deliveries GROUP BY 1, 2, 3;
  INSERT INTO webhook_attempts (team_id, webhook_id, event_id, type, attempt, status, outcome)
  SELECT team_id, webhook_id, event_id, 'page.updated', 1, 200, 'delivered' FROM webhook_deliveries;
`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'TID Cond'?: string;
  Plans?: PlanNode[];
}

/** Each scan of a table in the plan, as "node on table (index)", with whether something narrows what it reads. */
function scansOf(plan: PlanNode, table?: string): { scan: string; table: string; narrowed: boolean }[] {
  const own = plan['Node Type'] === 'ModifyTable' ? undefined : (plan['Relation Name'] ?? table);
  const here =
    own && (plan['Node Type'].endsWith('Scan') || plan['Index Name'])
      ? [
          {
            scan: `${plan['Node Type']} on ${own}${plan['Index Name'] ? ` (${plan['Index Name']})` : ''}`,
            table: own,
            // A Bitmap Heap Scan reads what its index scans found; every other scan needs a condition of its own.
            narrowed:
              plan['Node Type'] === 'Bitmap Heap Scan' || (plan['Index Cond'] ?? plan['TID Cond']) !== undefined,
          },
        ]
      : [];
  const inherited = ['Bitmap Heap Scan', 'BitmapAnd', 'BitmapOr'].includes(plan['Node Type']) ? own : undefined;
  return [...here, ...(plan.Plans ?? []).flatMap((child) => scansOf(child, inherited))];
}

/**
 * After a deploy the request pool's connections plan each statement once, generically, at its first
 * execution, on tables that are empty, and keep that plan while the tables fill, until the next ANALYZE of
 * each (autovacuum's, a minute or more later). No such plan may read a whole table: every request reaches
 * its rows by key, whatever the statistics were when its statement was planned.
 */
describeOnOneNode(
  'Generic plans made after a deploy',
  'a generic plan on Citus only routes a statement; its shard plans it with the values each time',
  () => {
    const statements = catalogue()
      .map((entry) => entry.statement)
      .filter((statement) => !WORKER_STATEMENTS.includes(statement.name));
    const config = testConfig();
    let database: EmptyDatabase;
    const sessions: Client[] = [];
    /** Plans by statement: made on tables never analyzed, on tables ANALYZEd while empty, and after they filled. */
    const plans: Record<string, Map<string, PlanNode>> = {};
    let plannedWhileEmpty: Map<string, string>;
    let keptAfterFill: Map<string, string>;
    let filled: Set<string>;
    /** Filled tables whose statistics no longer say they are empty (an ANALYZE ran): none, or it proves nothing. */
    let analyzedSinceFill: string[];

    /** A connection as the request pool opens one, with every statement prepared on it. */
    const requestConnection = async () => {
      const client = new Client({ connectionString: database.url, options: poolSettings(config).options });
      sessions.push(client);
      await client.connect();
      for (const statement of statements) await client.query(`PREPARE ${statement.name} AS ${statement.text}`);
      return client;
    };
    /** The generic plan each statement runs with on the connection (planned at the first EXECUTE, then kept). */
    const explain = async (client: Client, format: 'JSON' | 'TEXT') => {
      const explained = new Map<string, string>();
      for (const statement of statements) {
        const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT ${format}) ${executeWithNulls(statement.name, statement.parameters)}`,
        );
        explained.set(statement.name, JSON.stringify(rows.map((row) => row['QUERY PLAN'])));
      }
      return explained;
    };
    const parsed = (explained: Map<string, string>) =>
      new Map([...explained].map(([name, json]) => [name, (JSON.parse(json) as [[{ Plan: PlanNode }]])[0][0].Plan]));

    beforeAll(async () => {
      database = await createMigratedDatabase();

      const setup = new Client({ connectionString: database.url });
      sessions.push(setup);
      await setup.connect();
      // Autovacuum must not ANALYZE the filled tables during the spec: that would replan what it checks.
      const { rows: tables } = await setup.query<{ name: string }>(
        `SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relnamespace = to_regnamespace(current_schema())`,
      );
      for (const { name } of tables) await setup.query(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);

      plans.neverAnalyzed = parsed(await explain(await requestConnection(), 'JSON'));
      await setup.query('ANALYZE');
      const early = await requestConnection();
      plannedWhileEmpty = await explain(early, 'TEXT');
      plans.analyzedEmpty = parsed(await explain(early, 'JSON'));
      const holdsRows = async (table: string) => !!(await setup.query(`SELECT FROM ${table} LIMIT 1`)).rowCount;
      const emptyBefore: string[] = [];
      for (const { name } of tables) if (!(await holdsRows(name))) emptyBefore.push(name);
      await setup.query(FILL);
      keptAfterFill = await explain(early, 'TEXT');
      plans.afterFill = parsed(await explain(await requestConnection(), 'JSON'));

      filled = new Set();
      for (const name of emptyBefore) if (await holdsRows(name)) filled.add(name);
      const { rows: counted } = await setup.query<{ name: string }>(
        `SELECT relname AS name FROM pg_class WHERE relname = ANY ($1) AND reltuples <> 0`,
        [[...filled]],
      );
      analyzedSinceFill = counted.map((table) => table.name);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(sessions.map((client) => client.end().catch(() => undefined)));
      await database?.drop();
    });

    it('keeps the plans made before the fill, the statistics still saying the tables are empty', () => {
      expect([...keptAfterFill]).toEqual([...plannedWhileEmpty]);
      expect(filled).toContain('idempotency_keys');
      expect(analyzedSinceFill).toEqual([]);
    });

    it('fills every table of the schema a statement reads', () => {
      const read = new Set(
        Object.values(plans).flatMap((byName) =>
          [...byName.values()].flatMap((plan) => scansOf(plan).map((s) => s.table)),
        ),
      );
      const catalogs = (table: string) => table.startsWith('pg_'); // PostgreSQL's own (on_citus reads pg_extension)
      expect([...read].filter((table) => !filled.has(table) && !catalogs(table))).toEqual([]);
    });

    it.each(statements.map((statement) => [statement.name]))('%s reads no filled table whole', (name) => {
      const whole = Object.entries(plans).flatMap(([when, byName]) =>
        scansOf(byName.get(name)!)
          .filter((scan) => filled.has(scan.table) && !scan.narrowed)
          .map((scan) => `${when}: ${scan.scan}`),
      );
      expect(whole).toEqual([]);
    });
  },
);
