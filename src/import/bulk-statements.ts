import { EntityManager } from 'typeorm';
import { named } from '../database/named-parameters';
import { ImportError } from './import-error';

/** One table row as its columns, plus the document entry it comes from (for error messages). */
export type Row = Record<string, unknown> & { entry: string };

/** Column name -> PostgreSQL type. */
export type Columns = Record<string, string>;

export interface TableSpec {
  table: string;
  /** The conflict target: the primary key. */
  key: Columns;
  /** Overwritten when any of them differs from the stored row. */
  fields?: Columns;
  /** Written only when the row is created. */
  createOnly?: Columns;
  /** Has created_by/updated_by and a version; they and time_updated change only when a field does. */
  stamped?: boolean;
}

/** A table of per-parent rows (a page's members, a card's tags) that the document replaces. */
export interface ChildTableSpec extends TableSpec {
  /** The columns naming the parent, e.g. team_id and page_id. */
  parent: string[];
  /** Rows keep the order given (card tags): all are rewritten instead of only the changed ones. */
  ordered?: boolean;
}

export interface Statement {
  /** With named parameters (`:rows`), each a JSON array of rows, and `:teams`, the workspaces they are in. */
  sql: string;
  params: Record<string, string | string[]>;
  /** Rows the statement writes; none means there is nothing to run. */
  rows: Row[];
  table: string;
}

const STAMPS: Columns = { created_by: 'jsonb', updated_by: 'jsonb' };

const quote = (name: string) => `"${name}"`;
const list = (names: string[], prefix = '') => names.map((n) => prefix + quote(n)).join(', ');

/**
 * The rows of the JSON array parameter `:param` as a table `r`, in array order (`r.ord`). One parameter
 * carries any number of rows, so every write is one statement whatever the document's size.
 */
function recordset(columns: Columns, param: string): string {
  const definitions = Object.entries(columns).map(([name, type]) => `${quote(name)} ${type}`);
  return `ROWS FROM (jsonb_to_recordset(:${param}::jsonb) AS (${definitions.join(', ')}))
    WITH ORDINALITY AS r(${list(Object.keys(columns))}, ord)`;
}

const matches = (names: string[], left: string, right: string) =>
  names.map((n) => `${left}.${quote(n)} = ${right}.${quote(n)}`).join(' AND ');

/**
 * The condition that `t` is in the workspaces of `rows` (`:teams`), for a statement that changes rows it
 * finds by the document's keys: on Citus it then reaches only those workspaces' shards, not every shard
 * (where concurrent imports would lock each other's), and one node reads it as one more index condition.
 */
function inWorkspaces(spec: TableSpec, rows: Row[]): { where: string; params: { teams: string[] } } {
  if (!('team_id' in spec.key)) throw new Error(`${spec.table} is not a workspace table`);
  const teams = [...new Set(rows.map((row) => String(row.team_id)))];
  return { where: `t."team_id" = ANY(:teams::text[])`, params: { teams } };
}

/** Creates rows or updates them by key; a row whose fields are unchanged is left untouched. */
export function upsert(spec: TableSpec, rows: Row[]): Statement {
  const fields = Object.keys(spec.fields ?? {});
  const columns = { ...spec.key, ...spec.fields, ...spec.createOnly, ...(spec.stamped ? STAMPS : {}) };
  const names = Object.keys(columns);
  const changes = [
    ...fields.map((f) => `${quote(f)} = EXCLUDED.${quote(f)}`),
    ...(spec.stamped
      ? [
          '"updated_by" = EXCLUDED."updated_by"',
          // The proposed row's default (now()): Citus refuses a function that is not immutable here.
          '"time_updated" = EXCLUDED."time_updated"',
          `"version" = ${quote(spec.table)}."version" + 1`,
        ]
      : []),
  ];
  const onConflict =
    fields.length === 0
      ? 'DO NOTHING'
      : `DO UPDATE SET ${changes.join(', ')}
    WHERE (${list(fields, `${quote(spec.table)}.`)}) IS DISTINCT FROM (${list(fields, 'EXCLUDED.')})`;
  const sql = `INSERT INTO ${quote(spec.table)} (${list(names)})
    SELECT ${list(names, 'r.')} FROM ${recordset(columns, 'rows')} ORDER BY r.ord
    ON CONFLICT (${list(Object.keys(spec.key))}) ${onConflict}`;
  return { sql, params: { rows: JSON.stringify(rows) }, rows, table: spec.table };
}

/** Updates the fields of existing rows by key. */
export function update(spec: TableSpec, rows: Row[]): Statement {
  const fields = Object.keys(spec.fields ?? {});
  const teams = inWorkspaces(spec, rows);
  const sql = `UPDATE ${quote(spec.table)} t SET ${fields.map((f) => `${quote(f)} = r.${quote(f)}`).join(', ')}
    FROM ${recordset({ ...spec.key, ...spec.fields }, 'rows')}
    WHERE ${teams.where} AND ${matches(Object.keys(spec.key), 't', 'r')}`;
  return { sql, params: { rows: JSON.stringify(rows), ...teams.params }, rows, table: spec.table };
}

/**
 * Gives every row listed a new version, so that its ETag changes: for what an import rewrites beside the
 * row itself (its members, comments, tags, project), which the row's answer shows.
 */
export function newVersions(spec: TableSpec, rows: Row[]): Statement {
  const teams = inWorkspaces(spec, rows);
  const sql = `UPDATE ${quote(spec.table)} t SET "version" = t."version" + 1
    FROM ${recordset(spec.key, 'rows')} WHERE ${teams.where} AND ${matches(Object.keys(spec.key), 't', 'r')}`;
  return { sql, params: { rows: JSON.stringify(rows), ...teams.params }, rows, table: spec.table };
}

/** Deletes rows by key. */
export function remove(spec: TableSpec, rows: Row[]): Statement {
  const teams = inWorkspaces(spec, rows);
  const sql = `DELETE FROM ${quote(spec.table)} t USING ${recordset(spec.key, 'rows')}
    WHERE ${teams.where} AND ${matches(Object.keys(spec.key), 't', 'r')}`;
  return { sql, params: { rows: JSON.stringify(rows), ...teams.params }, rows, table: spec.table };
}

/** Makes the rows of each listed parent exactly `rows`: removes the others, then upserts. */
export function replaceChildren(spec: ChildTableSpec, parents: Row[], rows: Row[]): Statement[] {
  const types = { ...spec.key, ...spec.fields };
  const parentColumns = Object.fromEntries(spec.parent.map((name) => [name, types[name]]));
  const keys = Object.keys(spec.key);
  const keep = spec.ordered
    ? ''
    : `AND (${list(keys, 't.')}) NOT IN (SELECT ${list(keys, 'r.')} FROM ${recordset(spec.key, 'kept')})`;
  const listed = `SELECT ${list(spec.parent, 'r.')} FROM ${recordset(parentColumns, 'parents')}`;
  const teams = inWorkspaces(spec, parents);
  const removal: Statement = {
    sql: `DELETE FROM ${quote(spec.table)} t
      WHERE ${teams.where} AND (${list(spec.parent, 't.')}) IN (${listed})
      ${keep}`,
    params: spec.ordered
      ? { parents: JSON.stringify(parents), ...teams.params }
      : { parents: JSON.stringify(parents), kept: JSON.stringify(rows), ...teams.params },
    rows: parents,
    table: spec.table,
  };
  return [removal, upsert(spec, rows)];
}

/** Runs the statements in order; a constraint the data breaks becomes an ImportError naming its entry. */
export async function runStatements(tx: EntityManager, statements: Statement[]): Promise<void> {
  for (const statement of statements) {
    if (statement.rows.length === 0) continue;
    try {
      await tx.query(...named(statement.sql, statement.params));
    } catch (error) {
      throw asImportError(error, statement) ?? error;
    }
  }
}

interface PostgresError {
  code?: unknown;
  message?: string;
  detail?: string;
}

/** Data exceptions (22) and integrity violations (23) are the document's fault; anything else is not. */
function asImportError(error: unknown, statement: Statement): ImportError | undefined {
  const driver: PostgresError = (error as { driverError?: PostgresError }).driverError ?? (error as PostgresError);
  if (typeof driver.code !== 'string' || !/^2[23]/.test(driver.code)) return undefined;
  const entry = entryNamedBy(driver.detail, statement.rows) ?? statement.table;
  return ImportError.at(entry, driver.message + (driver.detail ? ` (${driver.detail})` : ''));
}

/** PostgreSQL's detail says `Key (team_id, id)=(acme, 12) ...`; find the row with those values. */
function entryNamedBy(detail: string | undefined, rows: Row[]): string | undefined {
  const match = /^Key \((.+?)\)=\((.*)\) (?:already exists|is not present)/.exec(detail ?? '');
  if (!match) return undefined;
  const columns = match[1].split(', ');
  const values = match[2].split(', ');
  if (columns.length !== values.length) return undefined;
  return rows.find((row) => columns.every((column, i) => String(row[column]) === values[i]))?.entry;
}
