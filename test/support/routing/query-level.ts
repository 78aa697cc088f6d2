import type { Node } from 'libpg-query';
import { as, columnNames, isParameter, uncast } from './sql-nodes';

/**
 * One query level (a SELECT, or an INSERT, UPDATE or DELETE) as routing sees it: its range items and
 * the conditions of its WHERE, and what its values are. "Team" below means equal to the team parameter.
 */

/** A value a query level computes: the team itself, or a whole row whose team_id is the team. */
export interface Value {
  team: boolean;
  teamRow: boolean;
}

export interface Column extends Value {
  name?: string;
}

/**
 * What a query returns, as far as routing cares. `open`: a recursive CTE read inside its own
 * definition, not known yet; its columns are taken to be the team's (its non-recursive term decides).
 */
export interface Output {
  columns: Column[];
  open?: boolean;
}

/** One item of a query level's FROM, or its INSERT, UPDATE or DELETE target. */
export interface RangeItem {
  /** Its alias, or the relation's name. */
  name: string;
  /** The workspace table it reads, if it is one. */
  table?: string;
  /** What it returns, if it is a CTE or a subquery. */
  output?: Output;
  /** The ON conditions that filter its rows: an inner join's, or an outer join's for its nullable side. */
  filters: Node[];
  /** Set when routing is decided otherwise: an INSERT target is routed by the team_id it inserts. */
  routed?: boolean;
  location?: number;
}

export interface Level {
  items: RangeItem[];
  where: Node[];
  /** The number of the team parameter ($1: 1). */
  team: number;
}

const NOT_TEAM: Value = { team: false, teamRow: false };

/**
 * Whether the item's rows are constrained to the team: `<name>.team_id = $team` (either way round) in
 * the level's WHERE or in its own ON filters; unqualified `team_id = $team` when it is alone in scope.
 */
export function isRouted(item: RangeItem, level: Level): boolean {
  if (item.routed !== undefined) return item.routed;
  const alone = level.items.length === 1;
  return [...level.where, ...item.filters].some((condition) => teamEquality(condition, item.name, alone, level.team));
}

function teamEquality(condition: Node, name: string, alone: boolean, team: number): boolean {
  const equality = as(condition, 'A_Expr');
  if (equality?.kind !== 'AEXPR_OP' || as(equality.name?.[0], 'String')?.sval !== '=') return false;
  const isTeamColumn = (side: Node | undefined) => {
    const names = columnNames(uncast(side));
    return names?.length === 2 ? names[0] === name && names[1] === 'team_id' : alone && names?.[0] === 'team_id';
  };
  return (
    (isTeamColumn(equality.lexpr) && isParameter(equality.rexpr, team)) ||
    (isTeamColumn(equality.rexpr) && isParameter(equality.lexpr, team))
  );
}

/** What an expression of the level is: the team parameter, a routed row's team_id, a routed row. */
export function valueOf(expression: Node | undefined, level: Level): Value {
  const node = uncast(expression);
  if (isParameter(node, level.team)) return { team: true, teamRow: false };
  const names = columnNames(node);
  if (names) return columnValue(names, level);
  const field = as(node, 'A_Indirection');
  if (field?.indirection?.length === 1 && as(field.indirection[0], 'String')?.sval === 'team_id')
    return { team: valueOf(field.arg, level).teamRow, teamRow: false };
  return NOT_TEAM;
}

function columnValue(names: string[], level: Level): Value {
  if (names.length === 2) {
    const item = level.items.find((i) => i.name === names[0]);
    return item ? columnOf(item, names[1], level) : NOT_TEAM;
  }
  const row = level.items.find((i) => i.name === names[0]);
  if (row) return { team: false, teamRow: row.table ? isRouted(row, level) : (row.output?.open ?? false) };
  return level.items.length === 1 ? columnOf(level.items[0], names[0], level) : NOT_TEAM;
}

function columnOf(item: RangeItem, column: string, level: Level): Value {
  if (item.table) return { team: column === 'team_id' && isRouted(item, level), teamRow: false };
  const found = item.output?.columns.find((c) => c.name === column);
  if (found) return found;
  return item.output?.open ? { team: true, teamRow: true } : NOT_TEAM;
}

/** The columns of a target list (a SELECT's, or a RETURNING), `*` expanded where the source is known. */
export function outputOf(targets: Node[] | undefined, level: Level): Column[] {
  return (targets ?? []).flatMap((target) => {
    const result = as(target, 'ResTarget');
    const names = columnNames(result?.val);
    if (names?.at(-1) === '*') return starColumns(names.length === 2 ? names[0] : undefined, level);
    return [{ name: result?.name ?? outputName(result?.val), ...valueOf(result?.val, level) }];
  });
}

function starColumns(qualifier: string | undefined, level: Level): Column[] {
  return level.items
    .filter((item) => qualifier === undefined || item.name === qualifier)
    .flatMap((item) =>
      item.table ? [{ name: 'team_id', ...columnOf(item, 'team_id', level) }] : (item.output?.columns ?? []),
    );
}

/** The name PostgreSQL gives an unnamed output column that reads a column or a field. */
function outputName(expression: Node | undefined): string | undefined {
  const names = columnNames(uncast(expression));
  if (names) return names.at(-1);
  const field = as(uncast(expression), 'A_Indirection')?.indirection?.at(-1);
  return as(field, 'String')?.sval;
}

/** Columns renamed by an alias's column list (`AS x(a, b)`, `cte(a, b)`). */
export function renamed(output: Output, names: Node[] | undefined): Output {
  if (!names?.length) return output;
  const columns = output.columns.map((c, i) => ({ ...c, name: as(names[i], 'String')?.sval ?? c.name }));
  return { ...output, columns };
}
