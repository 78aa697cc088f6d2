import { loadModule, parseSync } from 'libpg-query';
import { writeFunctionViolations } from './immutable-writes';
import { teamRoutingViolations } from './team-routing';

export interface RoutingOptions {
  /** The tables of one workspace each: those with a team_id column (Citus's distribution column). */
  workspaceTables: ReadonlySet<string>;
  /** The parameter that carries the caller's workspace, as written in the SQL: '$1'. */
  teamParam: string;
}

let parserLoaded: Promise<void> | undefined;

/**
 * What keeps a statement (positional PostgreSQL text, as prepared) from running on Citus with team_id
 * as the distribution column of every workspace table, one message per problem, none when it can:
 * Rule A, every workspace table it reads or writes is constrained to the team parameter at its own
 * level (team-routing.ts); Rule B, no non-immutable function where Citus refuses one in a write
 * (immutable-writes.ts). The statement is parsed by PostgreSQL's own parser (libpg-query, WASM), so
 * what is checked is what the server will see; text that does not parse throws its syntax error.
 */
export async function routingViolations(sql: string, options: RoutingOptions): Promise<string[]> {
  await (parserLoaded ??= loadModule());
  const tree = parseSync(sql);
  const team = /^\$(\d+)$/.exec(options.teamParam);
  if (!team) throw new Error(`The team parameter must be positional ($1, $2, ...), not ${options.teamParam}`);
  const rules = { sql, workspaceTables: options.workspaceTables, team: Number(team[1]), teamParam: options.teamParam };
  return [...teamRoutingViolations(tree, rules), ...writeFunctionViolations(tree, sql)];
}
