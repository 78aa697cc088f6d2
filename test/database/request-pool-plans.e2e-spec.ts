import { Client, DatabaseError, Pool } from 'pg';
import { poolSettings } from '../../src/database/data-source-options';
import { REQUEST_POOL } from '../../src/database/database-pools';
import { catalogue } from '../../src/sql-catalogue/catalogue';
import { TEST_ON_CITUS } from '../support/citus';
import { executeWithNulls } from '../support/execute-with-nulls';
import { seedWorkspace, Workspace } from '../support/fixtures';
import { createTestApp, TestApp } from '../support/test-app';
import { testConfig, testDatabaseUrl } from '../support/test-config';

/** Executions of a statement before PostgreSQL weighs its generic plan against the custom ones (plancache.c). */
const CUSTOM_PLANS_FIRST = 5;

interface PlanUse {
  name: string;
  generic_plans: number;
  custom_plans: number;
}

/**
 * Whether the database can make a generic plan of the statement: Citus refuses one ("could not create
 * distributed plan") where it cannot route the statement without its values; plain PostgreSQL always can.
 */
async function genericPlanMade(client: Client, name: string): Promise<boolean> {
  const statement = catalogue().find((entry) => entry.statement.name === name)!.statement;
  await client.query(`PREPARE probe AS ${statement.text}`);
  try {
    await client.query(`EXPLAIN ${executeWithNulls('probe', statement.parameters)}`);
    return true;
  } catch (error) {
    if ((error as DatabaseError).message === 'could not create distributed plan') return false;
    throw error;
  } finally {
    await client.query('DEALLOCATE probe');
  }
}

/**
 * How the request pool's connection plans what the page and tag routes run. On one PostgreSQL every statement
 * runs its one generic plan (data-source-options.ts). On a Citus coordinator a statement runs a generic plan
 * where Citus can make one, and is planned with its values at each execution where it cannot (database-pools.ts).
 */
describe('The plans of the request pool', () => {
  let t: TestApp;
  let ws: Workspace;
  let used: PlanUse[];
  /** A connection of its own, where every statement is planned generically or not at all. */
  let probe: Client;

  beforeAll(async () => {
    t = await createTestApp({ DB_POOL_SIZE: '1' });
    ws = await seedWorkspace(t.app);
    const as = (request: ReturnType<TestApp['http']['get']>) => request.set('Authorization', ws.auth.owner);
    const base = `/v1/${ws.teamId}`;
    for (let round = 0; round <= CUSTOM_PLANS_FIRST; round++) {
      const page = (
        await as(t.http.post(`${base}/pages`))
          .send({ project_id: ws.projectId })
          .expect(201)
      ).body.page;
      await as(t.http.get(`${base}/pages/${page.id}`)).expect(200);
      await as(t.http.patch(`${base}/pages/${page.id}`))
        .send({ title: `Page ${round}` })
        .expect(200);
      await as(t.http.get(`${base}/pages`))
        .query({ project_id: ws.projectId })
        .expect(200);
      const tag = (
        await as(t.http.post(`${base}/tags`))
          .send({ name: `Tag ${round}`, color: '#ff0000' })
          .expect(201)
      ).body.tag;
      await as(t.http.patch(`${base}/tags/${tag.id}`))
        .send({ color: '#00ff00' })
        .expect(200);
      await as(t.http.get(`${base}/tags`)).expect(200);
      await as(t.http.delete(`${base}/tags/${tag.id}`)).expect(204);
    }
    // The pool holds one connection: the one every route above ran on.
    const pool = t.app.get<Pool>(REQUEST_POOL);
    const { rows } = await pool.query<PlanUse>(
      'SELECT name, generic_plans::int, custom_plans::int FROM pg_prepared_statements',
    );
    used = rows.filter((statement) => statement.generic_plans + statement.custom_plans > CUSTOM_PLANS_FIRST);
    // The request pool's own settings (generic plans), without what the pool sets on Citus when it connects.
    probe = new Client({ connectionString: testDatabaseUrl(), options: poolSettings(testConfig()).options });
    await probe.connect();
  }, 60_000);

  afterAll(async () => {
    await probe?.end();
    await t?.close();
  });

  it('ran the statements of the page and tag routes more often than PostgreSQL plans them with their values', () => {
    expect(used.map((statement) => statement.name)).toEqual(
      expect.arrayContaining(['create_page', 'read_page', 'write_page', 'create_tag', 'update_tag', 'delete_tag']),
    );
  });

  it('runs a generic plan of each where the database makes one, else plans it with its values each time', async () => {
    const kind = (statement: PlanUse) =>
      statement.custom_plans === 0 ? 'generic' : statement.generic_plans === 0 ? 'custom' : 'custom, then generic';
    const expected: [string, string][] = [];
    for (const { name } of used) {
      const generic = await genericPlanMade(probe, name);
      expected.push([name, !generic ? 'custom' : TEST_ON_CITUS ? 'custom, then generic' : 'generic']);
    }
    expect(used.map((statement) => [statement.name, kind(statement)])).toEqual(expected);
  });
});
