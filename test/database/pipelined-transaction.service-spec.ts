import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { PoolSql } from '../../src/database/sql';
import { statement } from '../../src/database/statement';
import { testDatabaseUrl } from '../support/test-config';

const table = `wca_pipelined_${randomBytes(4).toString('hex')}`;
const INSERT = statement<{ n: number }, { n: number }>(
  'test_pipelined_insert',
  `INSERT INTO ${table} VALUES (:n) RETURNING n`,
);
const DIVIDE = statement<{ by: number }, never>('test_pipelined_divide', 'SELECT 1 / :by::int');

/** PoolSql.transaction on pipelined connections (the webhook worker's), and a statement that failed unawaited. */
describe('PoolSql.transaction', () => {
  const pools: Pool[] = [];
  const sqlOn = (pipeline: boolean) => {
    const pool = new Pool({ connectionString: testDatabaseUrl(), max: 2, pipeline });
    pools.push(pool);
    return new PoolSql(pool);
  };
  const stored = async () =>
    (await pools[0].query<{ n: number }>(`SELECT n FROM ${table} ORDER BY n`)).rows.map((row) => row.n);

  beforeAll(async () => {
    sqlOn(false);
    await pools[0].query(`CREATE TABLE ${table} (n int PRIMARY KEY)`);
  });
  beforeEach(() => pools[0].query(`TRUNCATE ${table}`));
  afterAll(async () => {
    await pools[0].query(`DROP TABLE IF EXISTS ${table}`);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('pipelined: commits what it ran, a last statement left pending included', async () => {
    const sql = sqlOn(true);
    const { last } = await sql.transaction(async (tx) => {
      await tx.query(INSERT, { n: 1 });
      return { last: tx.query(INSERT, { n: 2 }) };
    });
    expect(await last).toEqual([{ n: 2 }]);
    expect(await stored()).toEqual([1, 2]);
  });

  it('pipelined: a pending statement that fails rolls everything back and rejects with its error', async () => {
    const sql = sqlOn(true);
    const outcome = sql.transaction(async (tx) => {
      await tx.query(INSERT, { n: 1 });
      const pending = tx.query(DIVIDE, { by: 0 });
      return { pending };
    });
    await expect(outcome).rejects.toMatchObject({ code: '22012' }); // division_by_zero
    expect(await stored()).toEqual([]);
  });

  it('a statement that failed in work that went on regardless is not reported as committed', async () => {
    for (const sql of [sqlOn(false), sqlOn(true)]) {
      const outcome = sql.transaction(async (tx) => {
        await tx.query(INSERT, { n: 1 });
        await tx.query(DIVIDE, { by: 0 }).catch(() => undefined);
        return 'done';
      });
      await expect(outcome).rejects.toMatchObject({ code: '22012' });
      expect(await stored()).toEqual([]);
    }
  });
});
