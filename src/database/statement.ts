/**
 * One statement of a request path: a fixed text under a unique name, run as a named prepared
 * statement (parsed and planned once per connection, not per request), with the types of its
 * parameters and of its rows declared where it is defined.
 */
export interface Statement<Params extends readonly unknown[], Row> {
  readonly name: string;
  readonly text: string;
  /** Never set: it only carries the types to `SqlSession.query`. */
  readonly signature?: { params: Params; row: Row };
}

const names = new Set<string>();

/**
 * Declares a statement. A name names one text on every connection of the pool, so two statements
 * may never share one (pg refuses a second text under a name it has prepared).
 */
export function statement<Params extends readonly unknown[], Row = never>(
  name: string,
  text: string,
): Statement<Params, Row> {
  if (names.has(name)) throw new Error(`Two statements are named ${name}`);
  names.add(name);
  return { name, text };
}

/** The pool or one transaction's connection: runs catalogue statements only. */
export interface SqlSession {
  query<Params extends readonly unknown[], Row>(statement: Statement<Params, Row>, params: Params): Promise<Row[]>;
}
