import type { Node } from 'libpg-query';

/**
 * Typed access to the parse tree libpg-query gives (PostgreSQL's own raw parse tree as JSON): each
 * node is an object of one key, its kind, e.g. `{ SelectStmt: { ... } }`.
 */

type KindOf<N> = N extends unknown ? keyof N : never;
export type NodeKind = KindOf<Node>;
export type Payload<K extends NodeKind> = Extract<Node, Record<K, unknown>>[K];

/** The node's payload when it is of that kind. */
export function as<K extends NodeKind>(node: Node | undefined, kind: K): Payload<K> | undefined {
  return node !== undefined && kind in node ? (node as unknown as Record<K, Payload<K>>)[kind] : undefined;
}

/** The conditions ANDed at the top of a WHERE or ON clause. */
export function conjuncts(condition: Node | undefined): Node[] {
  if (condition === undefined) return [];
  const bool = as(condition, 'BoolExpr');
  if (bool?.boolop === 'AND_EXPR') return (bool.args ?? []).flatMap(conjuncts);
  return [condition];
}

/** The expression under any casts (`$1::text` is parameter $1). */
export function uncast(node: Node | undefined): Node | undefined {
  const cast = as(node, 'TypeCast');
  return cast ? uncast(cast.arg) : node;
}

/** A column reference's names, `*` for a star: `p.team_id` is ['p', 'team_id']. */
export function columnNames(node: Node | undefined): string[] | undefined {
  return as(node, 'ColumnRef')?.fields?.map((field) => as(field, 'String')?.sval ?? '*');
}

/** Whether the expression is positional parameter `number`, cast or not. */
export function isParameter(node: Node | undefined, number: number): boolean {
  return as(uncast(node), 'ParamRef')?.number === number;
}

/**
 * Visits every node under `value`, depth first, with its kind and payload; a visit that returns
 * false does not go below that node.
 */
export function visitNodes(value: unknown, visit: (kind: string, payload: object) => boolean | void): void {
  if (Array.isArray(value)) {
    for (const item of value) visitNodes(item, visit);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const keys = Object.keys(value);
  const tagged = keys.length === 1 && /^[A-Z]/.test(keys[0]);
  const payload: unknown = tagged ? (value as Record<string, unknown>)[keys[0]] : value;
  if (tagged && visit(keys[0], payload as object) === false) return;
  for (const child of Object.values(payload as object)) visitNodes(child, visit);
}

/** The subqueries of an expression (EXISTS, IN, scalar and ARRAY subqueries), not those nested in them. */
export function subqueriesOf(expression: unknown): { query: Node; kind: string }[] {
  const found: { query: Node; kind: string }[] = [];
  visitNodes(expression, (kind, payload) => {
    if (kind !== 'SubLink') return;
    const link = payload as Payload<'SubLink'>;
    if (link.subselect)
      found.push({ query: link.subselect, kind: SUBLINK_NAMES[link.subLinkType ?? ''] ?? 'subquery' });
    found.push(...subqueriesOf(link.testexpr));
    return false;
  });
  return found;
}

const SUBLINK_NAMES: Record<string, string> = {
  EXISTS_SUBLINK: 'EXISTS subquery',
  ANY_SUBLINK: 'IN/ANY subquery',
  ALL_SUBLINK: 'ALL subquery',
  EXPR_SUBLINK: 'scalar subquery',
  ARRAY_SUBLINK: 'ARRAY subquery',
};

/** The 1-based line of a byte offset in the SQL text, for messages. */
export function lineAt(sql: string, location: number | undefined): number {
  return Buffer.from(sql)
    .subarray(0, location ?? 0)
    .toString()
    .split('\n').length;
}
