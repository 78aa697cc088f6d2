import type {
  DeleteStmt,
  InsertStmt,
  Node,
  ParseResult,
  RangeVar,
  SelectStmt,
  UpdateStmt,
  WithClause,
} from 'libpg-query';
import { Column, isRouted, Level, Output, outputOf, RangeItem, renamed, valueOf } from './query-level';
import { FromScope, rangeItems } from './range-items';
import { as, conjuncts, lineAt, subqueriesOf, visitNodes } from './sql-nodes';

/**
 * Rule A: every read or write of a workspace table, at every level of a statement (CTEs, recursive
 * terms, subqueries, LATERAL, UPDATE ... FROM, DELETE ... USING, INSERT ... SELECT), is constrained to
 * one workspace by `<alias>.team_id = <team parameter>` at its own level, so that Citus can route it to
 * the shard of that workspace. A join `x.team_id = y.team_id` does not count: Citus cannot route by it.
 * An INSERT is routed by the team_id it inserts: the parameter, or the team_id of a row that is routed
 * (through CTEs and subqueries: `INSERT ... SELECT a.team_id FROM announced a` where `announced` returns
 * the team_id it inserted as the parameter).
 */

export interface RoutingRules {
  sql: string;
  workspaceTables: ReadonlySet<string>;
  /** The team parameter's number, and as written ('$1'), for messages. */
  team: number;
  teamParam: string;
}

/** Where the walk is: the CTEs in scope, the path of the current level for messages, and what it found. */
interface Walk {
  rules: RoutingRules;
  ctes: ReadonlyMap<string, Output>;
  path: string;
  violations: string[];
}

export function teamRoutingViolations(tree: ParseResult, rules: RoutingRules): string[] {
  const violations: string[] = [];
  for (const { stmt } of tree.stmts ?? []) if (stmt) checkQuery(stmt, { rules, ctes: new Map(), path: '', violations });
  return violations;
}

/** Checks one query level and those under it; returns what it returns. `arms` names a set operation's two sides. */
function checkQuery(query: Node, walk: Walk, arms?: [string, string]): Output {
  const select = as(query, 'SelectStmt');
  if (select) return checkSelect(select, walk, arms);
  const insert = as(query, 'InsertStmt');
  if (insert) return checkInsert(insert, walk);
  const update = as(query, 'UpdateStmt');
  if (update) return checkUpdate(update, walk);
  const remove = as(query, 'DeleteStmt');
  if (remove) return checkDelete(remove, walk);
  return { columns: [] };
}

function checkSelect(select: SelectStmt, outer: Walk, arms?: [string, string]): Output {
  const walk = withCtes(select.withClause, outer);
  if (select.larg && select.rarg) {
    const operation = `${select.op?.replace('SETOP_', '')}${select.all ? ' ALL' : ''}`;
    const [left, right] = arms ?? [`first arm of ${operation}`, `second arm of ${operation}`];
    return bothArms(checkSelect(select.larg, within(walk, left)), checkSelect(select.rarg, within(walk, right)));
  }
  const items = rangeItems(select.fromClause, fromScope(walk));
  const level: Level = { items, where: conjuncts(select.whereClause), team: walk.rules.team };
  requireRouted(items, level, walk, 'in its WHERE or JOIN ON');
  const { targetList, whereClause, havingClause, groupClause, sortClause, limitCount, limitOffset } = select;
  checkExpressions([targetList, whereClause, havingClause, groupClause, sortClause, limitCount, limitOffset], walk);
  checkExpressions([select.distinctClause, select.windowClause, select.valuesLists], walk);
  if (select.valuesLists) return { columns: valuesColumns(select.valuesLists, level) };
  return { columns: outputOf(targetList, level) };
}

function checkInsert(insert: InsertStmt, outer: Walk): Output {
  const walk = withCtes(insert.withClause, outer);
  const source = insert.selectStmt ? checkQuery(insert.selectStmt, walk) : { columns: [] };
  const position = (insert.cols ?? []).findIndex((column) => as(column, 'ResTarget')?.name === 'team_id');
  const target = targetItem(insert.relation, walk);
  target.routed = position >= 0 && (source.columns[position]?.team ?? source.open ?? false);
  if (target.table && !target.routed) {
    const { teamParam } = walk.rules;
    const why =
      position < 0
        ? 'team_id is not in its column list'
        : `the team_id it inserts is neither ${teamParam} nor the team_id of a row constrained to ${teamParam}`;
    report(walk, target.location, `INSERT INTO ${target.table}: ${why}`);
  }
  checkExpressions([insert.onConflictClause, insert.returningClause], walk);
  return { columns: outputOf(insert.returningClause?.exprs, { items: [target], where: [], team: walk.rules.team }) };
}

function checkUpdate(update: UpdateStmt, outer: Walk): Output {
  const walk = withCtes(update.withClause, outer);
  const target = targetItem(update.relation, walk);
  const from = rangeItems(update.fromClause, fromScope(walk));
  const level: Level = { items: [target, ...from], where: conjuncts(update.whereClause), team: walk.rules.team };
  requireRouted([target], level, walk, 'in its WHERE', 'UPDATE ');
  requireRouted(from, level, walk, 'in its WHERE or JOIN ON', 'UPDATE ... FROM ');
  checkExpressions([update.targetList, update.whereClause, update.returningClause], walk);
  return { columns: outputOf(update.returningClause?.exprs, level) };
}

function checkDelete(remove: DeleteStmt, outer: Walk): Output {
  const walk = withCtes(remove.withClause, outer);
  const target = targetItem(remove.relation, walk);
  const using = rangeItems(remove.usingClause, fromScope(walk));
  const level: Level = { items: [target, ...using], where: conjuncts(remove.whereClause), team: walk.rules.team };
  requireRouted([target], level, walk, 'in its WHERE', 'DELETE FROM ');
  requireRouted(using, level, walk, 'in its WHERE or JOIN ON', 'DELETE ... USING ');
  checkExpressions([remove.whereClause, remove.returningClause], walk);
  return { columns: outputOf(remove.returningClause?.exprs, level) };
}

/**
 * The CTEs of a WITH added to the scope, each checked. In WITH RECURSIVE every CTE sees all of them,
 * itself included (read as `open` until it is known); otherwise each sees those before it.
 */
function withCtes(clause: WithClause | undefined, walk: Walk): Walk {
  if (!clause) return walk;
  const ctes = new Map(walk.ctes);
  const names = (clause.ctes ?? []).map((node) => as(node, 'CommonTableExpr'));
  if (clause.recursive) for (const cte of names) ctes.set(cte?.ctename ?? '', { columns: [], open: true });
  for (const cte of names) {
    if (!cte?.ctequery) continue;
    const recursive = clause.recursive && readsRelation(cte.ctequery, cte.ctename);
    const terms = recursive ? (['non-recursive term', 'recursive term'] as [string, string]) : undefined;
    const inner = { ...within(walk, `CTE ${cte.ctename}`), ctes: new Map(ctes) };
    ctes.set(cte.ctename ?? '', renamed(checkQuery(cte.ctequery, inner, terms), cte.aliascolnames));
  }
  return { ...walk, ctes };
}

/** Whether a query reads a relation of that name anywhere (a CTE that reads itself is recursive). */
function readsRelation(query: Node, name: string | undefined): boolean {
  let found = false;
  visitNodes(query, (kind, payload) => void (found ||= kind === 'RangeVar' && (payload as RangeVar).relname === name));
  return found;
}

/** Checks the subqueries inside expressions (EXISTS, IN, scalar, ARRAY), each as a level of its own. */
function checkExpressions(value: unknown, walk: Walk): void {
  for (const { query, kind } of subqueriesOf(value)) checkQuery(query, within(walk, kind));
}

function fromScope(walk: Walk): FromScope {
  return {
    ctes: walk.ctes,
    workspaceTables: walk.rules.workspaceTables,
    subquery: (query, label) => checkQuery(query, within(walk, label)),
    expressions: (value) => checkExpressions(value, walk),
  };
}

function requireRouted(items: RangeItem[], level: Level, walk: Walk, where: string, verb = ''): void {
  for (const item of items) {
    if (!item.table || isRouted(item, level)) continue;
    const alias = item.name === item.table ? '' : ` ${item.name}`;
    report(
      walk,
      item.location,
      `${verb}${item.table}${alias}: no ${item.name}.team_id = ${walk.rules.teamParam} ${where}`,
    );
  }
}

function report(walk: Walk, location: number | undefined, problem: string): void {
  const where = `${walk.path || 'main query'}, line ${lineAt(walk.rules.sql, location)}`;
  walk.violations.push(`Rule A (routing) [${where}]: ${problem}`);
}

function targetItem(relation: RangeVar | undefined, walk: Walk): RangeItem {
  const table = relation?.relname ?? '';
  const name = relation?.alias?.aliasname ?? table;
  return {
    name,
    table: walk.rules.workspaceTables.has(table) ? table : undefined,
    filters: [],
    location: relation?.location,
  };
}

function within(walk: Walk, label: string): Walk {
  return { ...walk, path: walk.path ? `${walk.path} > ${label}` : label };
}

/** A set operation's columns: the team's only where both arms give the team's. */
function bothArms(left: Output, right: Output): Output {
  const open: Column = { team: true, teamRow: true };
  const closed: Column = { team: false, teamRow: false };
  const columns = left.columns.map((column, i) => {
    const other = right.columns[i] ?? (right.open ? open : closed);
    return { name: column.name, team: column.team && other.team, teamRow: column.teamRow && other.teamRow };
  });
  return { columns, open: left.open && right.open };
}

/** A VALUES list's columns: the team's where every row gives the team's. */
function valuesColumns(rows: Node[], level: Level): Column[] {
  const values = rows.map((row) => as(row, 'List')?.items ?? []);
  return (values[0] ?? []).map((_, i) => ({
    team: values.every((row) => valueOf(row[i], level).team),
    teamRow: false,
  }));
}
