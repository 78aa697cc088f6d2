import { QueryRunner } from 'typeorm';
import { OUT_OF_BOUNDS } from '../../../migrations/0006-count-siblings-in-blocks';
import { named } from '../named-parameters';

/** What marks a trigger function already rewritten: the setting its loop reads. */
const SCOPED = 'workspace_content_api.last_firing';

interface TransitionTrigger {
  table: string;
  fn: string;
  body: string;
  oldRows: string | null;
  newRows: string | null;
}

/**
 * Citus runs the statement triggers of pages on the node of each shard, where a statement that reaches a
 * distributed table cannot read the trigger's transition tables, and one that reaches it without its
 * workspace is not routed to one shard. So on Citus each such trigger function becomes a loop over the
 * statement's workspaces (nearly always one) that passes each workspace's rows, as JSON, to the function's
 * own body run as `<name>_in_workspace`: there the transition tables are read from that JSON, and every
 * statement names the workspace (`x.team_id = y.team_id` becomes `x.team_id = :team AND y.team_id =
 * :team`, the same rows), so each is routed to the one shard beside the trigger's. The bodies stay the
 * migrations' (0006, 0013, 0014, 0017): nothing about the counts changes.
 */
export async function scopeStatementTriggersToWorkspaces(runner: QueryRunner, tables: string[]): Promise<void> {
  // Idempotent, and run after every migration run: a migration that replaces one of these functions
  // (0020) leaves it unscoped, and only that one is rewritten again.
  const triggers = (await transitionTriggers(runner, tables)).filter((trigger) => !trigger.body.includes(SCOPED));
  if (triggers.length === 0) return;
  // Citus cannot run an SQL-language function with parameters inside another function; PL/pgSQL it can.
  const split = await sqlBodyOf(runner, 'page_sibling_blocks_split');
  if (split !== null)
    await runner.query(
      `CREATE OR REPLACE FUNCTION page_sibling_blocks_split(t text, pr text, pa bigint, lower text) RETURNS void
         LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $fn$ BEGIN ${split}; END $fn$`,
    );
  await runner.query(`
    CREATE OR REPLACE FUNCTION page_sibling_blocks_tidy_out_of_bounds(v_team text) RETURNS void LANGUAGE plpgsql AS $fn$
    DECLARE
      place record;
    BEGIN
      FOR place IN SELECT DISTINCT team_id, project_id, parent_key FROM page_sibling_blocks
                    WHERE team_id = v_team AND (${OUT_OF_BOUNDS})
      LOOP
        PERFORM page_sibling_blocks_tidy(place.team_id, place.project_id, place.parent_key);
      END LOOP;
    END $fn$`);
  for (const trigger of triggers) {
    await runner.query(
      `CREATE OR REPLACE FUNCTION ${trigger.fn}_in_workspace(v_team text, v_old jsonb, v_new jsonb) RETURNS void
         LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $fn$ ${inWorkspace(trigger)} $fn$`,
    );
    await runner.query(
      `CREATE OR REPLACE FUNCTION ${trigger.fn}() RETURNS trigger
         LANGUAGE plpgsql AS $fn$ ${perWorkspace(trigger)} $fn$`,
    );
  }
}

/** The trigger functions of `tables` that read transition tables. */
async function transitionTriggers(runner: QueryRunner, tables: string[]): Promise<TransitionTrigger[]> {
  return (await runner.query(
    ...named(
      `SELECT t.tgrelid::regclass::text AS table, p.proname::text AS fn, p.prosrc AS body,
              t.tgoldtable::text AS "oldRows", t.tgnewtable::text AS "newRows"
         FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE t.tgrelid::regclass::text = ANY(:tables) AND NOT t.tgisinternal
          AND (t.tgoldtable IS NOT NULL OR t.tgnewtable IS NOT NULL)
        ORDER BY p.proname`,
      { tables },
    ),
  )) as TransitionTrigger[];
}

/** The body of an SQL-language function; null once it is PL/pgSQL. */
async function sqlBodyOf(runner: QueryRunner, fn: string): Promise<string | null> {
  const [row] = (await runner.query(
    ...named(
      `SELECT p.prosrc FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.proname = :fn AND l.lanname = 'sql'`,
      { fn },
    ),
  )) as Array<{ prosrc: string }>;
  return row?.prosrc ?? null;
}

/** The trigger's body for one workspace's rows (v_team; v_old and v_new its transition rows as JSON). */
function inWorkspace({ table, body, oldRows, newRows }: TransitionTrigger): string {
  let text = body;
  if (oldRows)
    text = text.replace(new RegExp(`\\b${oldRows}\\b`, 'g'), `jsonb_populate_recordset(NULL::${table}, v_old)`);
  if (newRows)
    text = text.replace(new RegExp(`\\b${newRows}\\b`, 'g'), `jsonb_populate_recordset(NULL::${table}, v_new)`);
  return text
    .replace(/(\w+)\.team_id = (\w+)\.team_id/g, '$1.team_id = v_team AND $2.team_id = v_team')
    .replace(/DELETE FROM (\w+) WHERE ctid = ANY/g, 'DELETE FROM $1 WHERE team_id = v_team AND ctid = ANY')
    .replace(/SELECT ctid FROM (\w+) WHERE /g, 'SELECT ctid FROM $1 WHERE team_id = v_team AND ')
    .replace(/page_sibling_blocks_tidy_out_of_bounds\(\)/g, 'page_sibling_blocks_tidy_out_of_bounds(v_team)')
    .replace(/RETURN NULL;/g, 'RETURN;');
}

/**
 * The trigger function: its body once per workspace of the statement's rows. Citus may fire a statement
 * trigger more than once for one multi-row INSERT into a shard, each time with all its rows: a firing in
 * the same statement with the same rows as the one before it is skipped.
 */
function perWorkspace({ fn, oldRows, newRows }: TransitionTrigger): string {
  const tables = [oldRows, newRows].filter((name): name is string => name !== null);
  const rows = (name: string | null) =>
    name ? `(SELECT jsonb_agg(r) FROM ${name} r WHERE r.team_id = v_team)` : 'NULL';
  const ids = tables.map((name) => `(SELECT string_agg(team_id || ':' || id, ',' ORDER BY team_id, id) FROM ${name})`);
  return `
    DECLARE
      v_team text;
      v_firing text := TG_NAME || statement_timestamp() || md5(concat_ws('|', ${ids.join(', ')}));
    BEGIN
      IF current_setting('${SCOPED}', true) = v_firing THEN
        RETURN NULL;
      END IF;
      PERFORM set_config('${SCOPED}', v_firing, true);
      FOR v_team IN ${tables.map((name) => `SELECT DISTINCT team_id FROM ${name}`).join(' UNION ')} LOOP
        PERFORM ${fn}_in_workspace(v_team, ${rows(oldRows)}, ${rows(newRows)});
      END LOOP;
      RETURN NULL;
    END`;
}
