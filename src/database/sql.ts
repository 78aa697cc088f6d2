import { Inject, Injectable, Module } from '@nestjs/common';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { REQUEST_POOL } from './database-pools';
import { SqlSession, Statement, StatementParams } from './statement';

/** A statement as pg's query config: the name makes pg prepare it once per connection. */
function prepared<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): QueryConfig {
  return { name: statement.name, text: statement.text, values: statement.values(params) };
}

/** Catalogue statements and transactions on a pg pool, rows as pg gives them. */
export class PoolSql implements SqlSession {
  constructor(private readonly pool: Pool) {}

  async query<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): Promise<Row[]> {
    return (await this.pool.query(prepared(statement, params))).rows as Row[];
  }

  /**
   * `work` in one transaction on one connection: committed if it resolves, rolled back if it throws
   * (the error passes through). A connection that failed (the server ended it, or its ROLLBACK
   * failed) is broken: the pool drops it. pg-pool listens for a connection's errors only while it is
   * idle, so one that fails while checked out needs this listener, or its 'error' event is unhandled.
   */
  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(sessionOf(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}

/** The request paths' database access, on the pool DatabaseModule made for them. */
@Injectable()
export class Sql extends PoolSql {
  constructor(@Inject(REQUEST_POOL) pool: Pool) {
    super(pool);
  }
}

/** One checked-out connection as a SqlSession. */
export function sessionOf(client: PoolClient): SqlSession {
  return {
    async query<Params extends StatementParams, Row>(
      statement: Statement<Params, Row>,
      params: Params,
    ): Promise<Row[]> {
      return (await client.query(prepared(statement, params))).rows as Row[];
    },
  };
}

@Module({ providers: [Sql], exports: [Sql] })
export class SqlModule {}
