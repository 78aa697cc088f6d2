import type { Pool, PoolClient } from 'pg';
import { sessionOf, Sql } from '../../src/database/sql';
import type { SqlSession, Statement, StatementParams } from '../../src/database/statement';
import type { SqlText } from './sql-text';

const SERVICE_TRANSACTION = 'service_transaction';
const UNDONE_WORK = 'undone_work';

/**
 * Sql for service specs: one connection, inside a transaction that each test opens (`begin`) and
 * undoes (`rollback`), so every test starts from the seeded tree. The service's own transactions
 * become savepoints of it: a refusal or a retry still undoes what its transaction wrote. now() is the
 * test's start, so every time a test stamps is the same.
 */
export class RolledBackSql implements Pick<Sql, keyof Sql> {
  private client: PoolClient | null = null;

  constructor(private readonly pool: Pool) {}

  async begin(): Promise<void> {
    if (this.client) throw new Error('A test transaction is already open');
    this.client = await this.pool.connect();
    await this.client.query('BEGIN');
  }

  /** Undoes the test's transaction; none open (its setup failed) is nothing to undo. */
  async rollback(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    try {
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  }

  /** Runs `work` and undoes what it wrote, the test's transaction staying open: each property run starts alike. */
  async undoing<T>(work: () => Promise<T>): Promise<T> {
    const client = this.open();
    await client.query(`SAVEPOINT ${UNDONE_WORK}`);
    try {
      return await work();
    } finally {
      await client.query(`ROLLBACK TO SAVEPOINT ${UNDONE_WORK}`);
      await client.query(`RELEASE SAVEPOINT ${UNDONE_WORK}`);
    }
  }

  query<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): Promise<Row[]> {
    return sessionOf(this.open()).query(statement, params);
  }

  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const client = this.open();
    await client.query(`SAVEPOINT ${SERVICE_TRANSACTION}`);
    try {
      const result = await work(sessionOf(client));
      await client.query(`RELEASE SAVEPOINT ${SERVICE_TRANSACTION}`);
      return result;
    } catch (error) {
      await client.query(`ROLLBACK TO SAVEPOINT ${SERVICE_TRANSACTION}`);
      await client.query(`RELEASE SAVEPOINT ${SERVICE_TRANSACTION}`);
      throw error;
    }
  }

  /** SQL text on the test's transaction, for the test's own checks: it sees what the services wrote. */
  readonly plain: SqlText = {
    query: async <Row>(text: string, params: unknown[] = []) => (await this.open().query(text, params)).rows as Row[],
  };

  private open(): PoolClient {
    if (!this.client) throw new Error('No test transaction is open: useServices() opens one before each test');
    return this.client;
  }
}
