import type { InsertStmt, Node, ParseResult, UpdateStmt } from 'libpg-query';
import { volatilityOf } from './non-immutable-functions';
import { as, columnNames, lineAt, Payload, visitNodes } from './sql-nodes';

/**
 * Rule B: no function that is not IMMUTABLE where Citus cannot evaluate it once on the coordinator:
 * - in an ON CONFLICT DO UPDATE SET expression (other than a bare column) or its WHERE: "functions used in
 *   the DO UPDATE SET clause of INSERTs on distributed tables must be marked IMMUTABLE";
 * - in an UPDATE SET expression that also reads a column: "STABLE functions used in UPDATE queries cannot
 *   be called with column references" (read wider than Citus, which looks at the function's own
 *   arguments, because a STABLE operator such as timestamptz + interval is not seen here: `now() + col`);
 * - inside a CASE or COALESCE of a write's SET or inserted values: "non-IMMUTABLE functions are not
 *   allowed in CASE or COALESCE statements".
 * Functions are known by name (non-immutable-functions.ts); CURRENT_TIMESTAMP and its kind are STABLE.
 */
export function writeFunctionViolations(tree: ParseResult, sql: string): string[] {
  const violations: string[] = [];
  for (const write of writesIn(
    tree.stmts?.map((s) => s.stmt),
    undefined,
  )) {
    const report = (location: number | undefined, problem: string) => {
      const where = `${write.cte ? `CTE ${write.cte}` : 'main query'}, line ${lineAt(sql, location)}`;
      violations.push(`Rule B (immutable) [${where}]: ${problem}`);
    };
    if (write.update) checkUpdate(write.update, report);
    if (write.insert) checkInsert(write.insert, report);
  }
  return violations;
}

type Report = (location: number | undefined, problem: string) => void;

interface Write {
  insert?: InsertStmt;
  update?: UpdateStmt;
  /** The CTE it is the query of, for messages. */
  cte?: string;
}

/** Every INSERT and UPDATE under `value`, with the CTE each belongs to. */
function writesIn(value: unknown, cte: string | undefined): Write[] {
  const found: Write[] = [];
  visitNodes(value, (kind, payload) => {
    if (kind === 'CommonTableExpr') {
      const expression = payload as Payload<'CommonTableExpr'>;
      found.push(...writesIn(expression.ctequery, expression.ctename));
      return false;
    }
    if (kind === 'InsertStmt') found.push({ insert: payload, cte });
    if (kind === 'UpdateStmt') found.push({ update: payload, cte });
  });
  return found;
}

function checkUpdate(update: UpdateStmt, report: Report): void {
  const table = update.relation?.relname;
  for (const node of update.targetList ?? []) {
    const set = as(node, 'ResTarget');
    const value = set?.val;
    const problems = [...lazilyEvaluated(value)];
    const calls = nonImmutableCalls(value);
    if (calls.length && readsColumn(value))
      problems.unshift(`${calls.join(', ')} in an expression that reads a column`);
    if (problems.length) report(set?.location, `UPDATE ${table} SET ${set?.name}: ${problems.join('; ')}`);
  }
}

function checkInsert(insert: InsertStmt, report: Report): void {
  const table = insert.relation?.relname;
  const conflict = insert.onConflictClause;
  if (conflict?.action === 'ONCONFLICT_UPDATE') {
    for (const node of conflict.targetList ?? []) {
      const set = as(node, 'ResTarget');
      const calls = columnNames(set?.val) ? [] : nonImmutableCalls(set?.val);
      if (calls.length) report(set?.location, `ON CONFLICT DO UPDATE SET ${set?.name}: ${calls.join(', ')}`);
    }
    const calls = nonImmutableCalls(conflict.whereClause);
    if (calls.length) report(conflict.location, `ON CONFLICT DO UPDATE ... WHERE: ${calls.join(', ')}`);
  }
  const columns = (insert.cols ?? []).map((column) => as(column, 'ResTarget')?.name ?? '?');
  for (const row of insertedRows(insert.selectStmt)) {
    row.forEach((value, i) => {
      const problems = lazilyEvaluated(value);
      if (problems.length)
        report(insert.relation?.location, `INSERT INTO ${table} value of ${columns[i]}: ${problems.join('; ')}`);
    });
  }
}

/** The rows of inserted values: each VALUES row, or the target list of each arm of the SELECT. */
function insertedRows(source: Node | undefined): Node[][] {
  const select = as(source, 'SelectStmt');
  if (!select) return [];
  const arms = (s: Payload<'SelectStmt'>): Node[][] =>
    s.larg && s.rarg
      ? [...arms(s.larg), ...arms(s.rarg)]
      : s.valuesLists
        ? s.valuesLists.map((row) => as(row, 'List')?.items ?? [])
        : [(s.targetList ?? []).map((target) => as(target, 'ResTarget')?.val ?? target)];
  return arms(select);
}

/** Non-immutable calls inside a CASE or a COALESCE: Citus cannot evaluate those lazy branches up front. */
function lazilyEvaluated(value: Node | undefined): string[] {
  const problems: string[] = [];
  visitNodes(value, (kind, payload) => {
    if (kind !== 'CaseExpr' && kind !== 'CoalesceExpr') return;
    const calls = nonImmutableCalls({ [kind]: payload });
    if (calls.length) problems.push(`${calls.join(', ')} inside ${kind === 'CaseExpr' ? 'CASE' : 'COALESCE'}`);
    return false;
  });
  return problems;
}

/** The calls of non-immutable functions in an expression, e.g. `now() [stable]`. */
export function nonImmutableCalls(value: unknown): string[] {
  const calls = new Set<string>();
  visitNodes(value, (kind, payload) => {
    if (kind === 'SQLValueFunction') {
      const op = (payload as Payload<'SQLValueFunction'>).op ?? '';
      calls.add(`${op.replace(/^SVFOP_/, '').replace(/_N$/, '')} [stable]`);
    }
    if (kind !== 'FuncCall') return;
    const name = as((payload as Payload<'FuncCall'>).funcname?.at(-1), 'String')?.sval ?? '';
    const volatility = volatilityOf(name);
    if (volatility) calls.add(`${name}() [${volatility}]`);
  });
  return [...calls];
}

function readsColumn(value: Node | undefined): boolean {
  let found = false;
  visitNodes(value, (kind) => void (found ||= kind === 'ColumnRef'));
  return found;
}
