import { QueryRunner } from 'typeorm';
import { named } from '../named-parameters';
import { DISTRIBUTION_COLUMN, REFERENCE_TABLES, WORKSPACE_TABLES } from './distribution-plan';
import { scopeStatementTriggersToWorkspaces } from './statement-triggers';
import { ON_CITUS } from './citus-probe';
import { distributeWriteFunctions } from './write-functions';

interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

/**
 * Citus runs the triggers of tokens and members (migration 0005) on every node that holds a copy, and a
 * NOTIFY in a transaction Citus prepares on a worker is refused; the coordinator's copy is written in its
 * own transaction, where the instances listen. So on Citus only the coordinator's trigger notifies.
 */
const NOTIFY_FROM_COORDINATOR = `
  CREATE OR REPLACE FUNCTION notify_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
  BEGIN
    IF citus_is_coordinator() THEN
      PERFORM pg_notify('auth_changed', TG_TABLE_NAME);
    END IF;
    RETURN NULL;
  END $fn$`;

/**
 * Keys Citus refuses on a distributed table (they lack team_id), replaced by keys it accepts: an alias_id
 * is unique within a workspace; across workspaces only the service's random UUIDs keep them apart (an
 * import could bring a pair), and the directory of shared pages is found by alias in every shard
 * (docs/citus.md).
 */
const CROSS_WORKSPACE_KEYS = `
  ALTER TABLE pages DROP CONSTRAINT pages_alias_id_key;
  ALTER TABLE pages ADD CONSTRAINT pages_team_id_alias_id_key UNIQUE (team_id, alias_id);
  ALTER TABLE public_page_aliases DROP CONSTRAINT public_page_aliases_pkey;
  ALTER TABLE public_page_aliases ADD PRIMARY KEY (alias_id, team_id);`;

/**
 * A page's created_xid is compared with snapshots taken on its workspace's node (the page list's walk,
 * docs/page-list.md), but Citus computes an INSERT's defaults on the coordinator, whose transaction ids
 * are its own: on Citus a trigger on the shard sets it there.
 */
const CREATED_XID_ON_SHARD = [
  `CREATE FUNCTION pages_created_xid_on_shard() RETURNS trigger LANGUAGE plpgsql AS $fn$
   BEGIN
     NEW.created_xid := pg_current_xact_id();
     RETURN NEW;
   END $fn$`,
  `CREATE TRIGGER pages_created_xid_on_shard BEFORE INSERT ON pages
     FOR EACH ROW EXECUTE FUNCTION pages_created_xid_on_shard()`,
];

/** True when the database is a Citus coordinator (the extension is installed). */
export async function isCitus(runner: QueryRunner): Promise<boolean> {
  const [row] = (await runner.query(ON_CITUS.text)) as Array<{ citus: boolean }>;
  return row.citus;
}

/** What one run of the placing did on a Citus coordinator: the tables it placed, the functions it distributed. */
export interface Placed {
  tables: string[];
  functions: string[];
}

/**
 * On a Citus coordinator, places every table the plan names that is not placed yet (distribution-plan.ts);
 * elsewhere, nothing. Citus distributes a table only once the tables its foreign keys refer to are
 * distributed or reference tables, and refuses to distribute one that a local table refers to: so the
 * foreign keys of the tables to place are dropped, the tables placed, and the keys added again, in one
 * transaction, with what Citus needs of their triggers (NOTIFY_FROM_COORDINATOR, CREATED_XID_ON_SHARD).
 * Every run, placing or not, scopes the page triggers a migration left unscoped (statement-triggers.ts) and
 * distributes the write functions not distributed yet (write-functions.ts).
 * Returns what it placed; null on plain PostgreSQL.
 */
export async function distributeOnCitus(runner: QueryRunner): Promise<Placed | null> {
  if (!(await isCitus(runner))) return null;
  const rows = (await runner.query(
    `SELECT table_name::text AS name, citus_table_type AS type FROM citus_tables`,
  )) as Array<{
    name: string;
    type: string;
  }>;
  const placed = new Map(rows.map((row) => [row.name, row.type]));
  // A table Citus took another way (a new table with a key to a reference table becomes a local Citus
  // table) is not taken for placed.
  const toPlace = (table: string, type: string) => {
    const found = placed.get(table);
    if (found && found !== type)
      throw new Error(
        `${table} is a ${found} table on Citus, the plan makes it ${type}: ` +
          `SELECT undistribute_table('${table}'), then run migration:run again`,
      );
    return !found;
  };
  const references = Object.keys(REFERENCE_TABLES).filter((table) => toPlace(table, 'reference'));
  const distributed = WORKSPACE_TABLES.filter((table) => toPlace(table, 'distributed'));
  const pending = [...references, ...distributed];
  if (pending.length === 0) {
    await inTransaction(runner, () => scopeStatementTriggersToWorkspaces(runner, ['pages']));
    return { tables: [], functions: await distributeWriteFunctions(runner) };
  }
  await inTransaction(runner, async () => {
    // Citus may not run the copies of a table's rows in parallel inside a transaction that changed its schema.
    await runner.query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
    // Tables with triggers: pages' run on its shards, each writing only its own workspace's rows; tokens' and
    // members' on every copy (docs/citus.md).
    await runner.query(`SET LOCAL citus.enable_unsafe_triggers TO on`);
    const keys = await foreignKeysTouching(runner, pending);
    for (const key of keys) await runner.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
    if (references.includes('tokens') || references.includes('members')) await runner.query(NOTIFY_FROM_COORDINATOR);
    if (distributed.includes('pages')) await runner.query(CROSS_WORKSPACE_KEYS);
    for (const table of references) await runner.query(...named(`SELECT create_reference_table(:table)`, { table }));
    for (const table of distributed)
      await runner.query(
        ...named(`SELECT create_distributed_table(:table, :column, colocate_with => :colocateWith)`, {
          table,
          column: DISTRIBUTION_COLUMN,
          colocateWith: table === WORKSPACE_TABLES[0] ? 'default' : WORKSPACE_TABLES[0],
        }),
      );
    // One statement per query: Citus sends a statement's whole query text to the workers.
    if (distributed.includes('pages')) for (const statement of CREATED_XID_ON_SHARD) await runner.query(statement);
    await scopeStatementTriggersToWorkspaces(runner, ['pages']);
    for (const key of keys) await runner.query(`ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`);
  });
  return { tables: pending, functions: await distributeWriteFunctions(runner) };
}

async function inTransaction(runner: QueryRunner, work: () => Promise<void>): Promise<void> {
  await runner.startTransaction();
  try {
    await work();
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  }
}

/** The foreign keys from or to any of `tables`, as their definitions (to add them again as they were). */
async function foreignKeysTouching(runner: QueryRunner, tables: string[]): Promise<ForeignKey[]> {
  return (await runner.query(
    ...named(
      `SELECT conrelid::regclass::text AS table, quote_ident(conname) AS name, pg_get_constraintdef(oid) AS definition
         FROM pg_constraint
        WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
          AND (conrelid::regclass::text = ANY(:tables) OR confrelid::regclass::text = ANY(:tables))
        ORDER BY conrelid::regclass::text, conname`,
      { tables },
    ),
  )) as ForeignKey[];
}
