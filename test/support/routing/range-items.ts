import type { Node, RangeVar } from 'libpg-query';
import { Output, RangeItem, renamed } from './query-level';
import { as, conjuncts } from './sql-nodes';

/** What collecting a FROM clause needs from the query walker: the CTEs in scope, and checks of nested queries. */
export interface FromScope {
  ctes: ReadonlyMap<string, Output>;
  workspaceTables: ReadonlySet<string>;
  /** Checks a subquery of the FROM clause (`label` says which) and returns what it returns. */
  subquery(query: Node, label: string): Output;
  /** Checks the subqueries inside expressions (function arguments, ON conditions). */
  expressions(value: unknown): void;
}

/**
 * The range items of a FROM (or USING) clause, joins flattened. An ON condition filters both sides of
 * an inner join, only the nullable side of an outer join (it does not remove rows of the preserved
 * side), and neither side of a full join; a USING list equates the two sides, which never routes.
 */
export function rangeItems(from: Node[] | undefined, scope: FromScope): RangeItem[] {
  const items: RangeItem[] = [];
  for (const node of from ?? []) collect(node, [], scope, items);
  return items;
}

function collect(node: Node | undefined, filters: Node[], scope: FromScope, items: RangeItem[]): void {
  const relation = as(node, 'RangeVar');
  if (relation) return void items.push(relationItem(relation, filters, scope));
  const subselect = as(node, 'RangeSubselect');
  if (subselect?.subquery) {
    const name = subselect.alias?.aliasname ?? '(unnamed)';
    const output = scope.subquery(subselect.subquery, `${subselect.lateral ? 'LATERAL ' : ''}subquery ${name}`);
    return void items.push({ name, output: renamed(output, subselect.alias?.colnames), filters });
  }
  const join = as(node, 'JoinExpr');
  if (join) {
    const on = conjuncts(join.quals);
    const filtersLeft = join.jointype === 'JOIN_INNER' || join.jointype === 'JOIN_RIGHT';
    const filtersRight = join.jointype === 'JOIN_INNER' || join.jointype === 'JOIN_LEFT';
    collect(join.larg, filtersLeft ? [...filters, ...on] : filters, scope, items);
    collect(join.rarg, filtersRight ? [...filters, ...on] : filters, scope, items);
    return scope.expressions(join.quals);
  }
  const functions = as(node, 'RangeFunction');
  scope.expressions(functions?.functions ?? node);
  if (functions) items.push({ name: functions.alias?.aliasname ?? '(function)', filters });
}

/** A CTE read by name (a CTE in scope hides a table of the same name), a workspace table, or another relation. */
function relationItem(relation: RangeVar, filters: Node[], scope: FromScope): RangeItem {
  const table = relation.relname ?? '';
  const name = relation.alias?.aliasname ?? table;
  const cte = relation.schemaname ? undefined : scope.ctes.get(table);
  if (cte) return { name, output: renamed(cte, relation.alias?.colnames), filters };
  if (scope.workspaceTables.has(table)) return { name, table, filters, location: relation.location };
  return { name, filters };
}
