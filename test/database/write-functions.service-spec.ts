import { Client } from 'pg';
import { catalogue } from '../../src/sql-catalogue/catalogue';
import { WORKSPACE_ARGUMENT } from '../../src/database/citus/write-functions';
import { functionStatements } from '../support/routing/function-statements';
import { routingViolations } from '../support/routing/workspace-routing';
import { writingCtes } from '../support/routing/writes-in-ctes';
import { testDatabaseUrl } from '../support/test-config';
import { workspaceTables } from '../support/workspace-tables';

interface WriteFunction {
  name: string;
  language: string;
  definition: string;
}

/** The migrated database's write functions: those whose first argument is the workspace. */
async function writeFunctions(): Promise<WriteFunction[]> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<WriteFunction>(
      `SELECT p.proname::text AS name, l.lanname::text AS language, pg_get_functiondef(p.oid) AS definition
         FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE p.pronamespace = current_schema()::regnamespace AND p.proargnames[1] = $1 ORDER BY 1`,
      [WORKSPACE_ARGUMENT],
    );
    return rows;
  } finally {
    await client.end();
  }
}

/**
 * A write function runs whole on the workspace's node on Citus (docs/citus.md) only if every statement in
 * it keeps to that node: each is checked as the catalogue's statements are (statement-routing, no INSERT in
 * a CTE), with the function's workspace argument as the team parameter.
 */
describe('Write functions routable by workspace', () => {
  let functions: WriteFunction[];
  let tables: Set<string>;
  beforeAll(async () => {
    [functions, tables] = await Promise.all([writeFunctions(), workspaceTables()]);
  });

  it('are written in PL/pgSQL, whose statements the check below reads', () => {
    expect(functions.filter((f) => f.language !== 'plpgsql').map((f) => f.name)).toEqual([]);
  });

  it('every statement of every write function names its workspace and inserts in no CTE', async () => {
    const problems: Record<string, string[]> = {};
    for (const { name, definition } of functions)
      for (const sql of await functionStatements(definition)) {
        const routed = sql.replace(new RegExp(`\\b${WORKSPACE_ARGUMENT}\\b`, 'g'), '$1');
        const found = [
          ...(await routingViolations(routed, { workspaceTables: tables, teamParam: '$1' })),
          ...(await writingCtes(routed)).filter((cte) => cte.startsWith('INSERT')),
        ];
        if (found.length > 0) problems[`${name}: ${sql}`] = found;
      }
    expect(problems).toEqual({});
    expect(functions.length).toBeGreaterThan(0);
  });

  it('every write call of the catalogue calls a write function, its workspace first', () => {
    const calls = catalogue().filter(({ statement }) => /\) AS written$/.test(statement.source));
    const called = calls.map(({ statement }) => /^SELECT (\w+)\(:teamId::text,/.exec(statement.source)?.[1]);
    expect(called.map((fn) => functions.some((f) => f.name === fn) && fn)).toEqual(called);
    expect(called).not.toContain(undefined);
    expect(calls.length).toBeGreaterThan(0);
  });
});
