import { compileNamedParameters, valuesInOrder } from './named-parameters';

/** A statement's parameters by name: the object a call passes. */
export type StatementParams = object;

/**
 * One statement of a request path: a fixed text under a unique name, run as a named prepared
 * statement (parsed and planned once per connection, not per request), with the types of its
 * parameters and of its rows declared where it is defined. The text names its parameters
 * (`:teamId`); `text` is what PostgreSQL is sent (positional), and `values` puts a call's object
 * in that order.
 */
export interface Statement<Params extends StatementParams, Row> {
  readonly name: string;
  /** As written, with named parameters: what `npm run sql:snapshot` shows. */
  readonly source: string;
  /** As sent: positional parameters. */
  readonly text: string;
  /** The parameters' names, in the order PostgreSQL numbers them. */
  readonly parameters: readonly string[];
  values(params: Params): unknown[];
  /** Never set: it only carries the types to `SqlSession.query`. */
  readonly signature?: { params: Params; row: Row };
}

const catalogue = new Map<string, Statement<never, unknown>>();

/**
 * Declares a statement. A name names one text on every connection of the pool, so two statements
 * may never share one (pg refuses a second text under a name it has prepared).
 */
export function statement<Params extends StatementParams = Record<never, never>, Row = never>(
  name: string,
  source: string,
): Statement<Params, Row> {
  if (catalogue.has(name)) throw new Error(`Two statements are named ${name}`);
  const { text, parameters } = compileNamedParameters(source);
  const declared: Statement<Params, Row> = {
    name,
    source,
    text,
    parameters,
    values: (params) => valuesInOrder(parameters, params, `Statement ${name}`),
  };
  catalogue.set(name, declared as Statement<never, unknown>);
  return declared;
}

/** Every statement declared so far (those of the modules loaded), by name. */
export function declaredStatements(): ReadonlyMap<string, Statement<never, unknown>> {
  return catalogue;
}

/** The pool or one transaction's connection: runs catalogue statements only. */
export interface SqlSession {
  query<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): Promise<Row[]>;
}
