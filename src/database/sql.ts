import { Inject, Injectable, Module, Optional } from '@nestjs/common';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { Metrics } from '../observability/metrics';
import { REQUEST_POOL } from './database-pools';
import { SqlSession, Statement, StatementParams } from './statement';

/** A statement as pg's query config: the name makes pg prepare it once per connection. */
function prepared<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): QueryConfig {
  return { name: statement.name, text: statement.text, values: statement.values(params) };
}

/**
 * Where every catalogue statement is executed: on `client` (the pool or a checked-out connection),
 * timed into `metrics` when given (the request paths'). Its trace span is the pg instrumentation's,
 * named by the catalogue name (observability/tracing.ts).
 */
async function run<Params extends StatementParams, Row>(
  client: Pool | PoolClient,
  statement: Statement<Params, Row>,
  params: Params,
  metrics: Metrics | undefined,
): Promise<Row[]> {
  if (!metrics?.enabled) return (await client.query(prepared(statement, params))).rows as Row[];
  const started = performance.now();
  try {
    const rows = (await client.query(prepared(statement, params))).rows as Row[];
    metrics.statement(statement.name, (performance.now() - started) / 1000);
    return rows;
  } catch (error) {
    metrics.statement(statement.name, (performance.now() - started) / 1000, error);
    throw error;
  }
}

/** Catalogue statements and transactions on a pg pool, rows as pg gives them. */
export class PoolSql implements SqlSession {
  constructor(
    private readonly pool: Pool,
    private readonly metrics?: Metrics,
  ) {}

  query<Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params): Promise<Row[]> {
    return run(this.pool, statement, params, this.metrics);
  }

  /**
   * `work` in one transaction on one connection: committed if it resolves, rolled back if it throws
   * (the error passes through). A connection that failed (the server ended it, or its ROLLBACK
   * failed) is broken: the pool drops it. pg-pool listens for a connection's errors only while it is
   * idle, so one that fails while checked out needs this listener, or its 'error' event is unhandled.
   *
   * On a pool whose connections pipeline (pg's `pipeline` option) BEGIN goes out with the first
   * statement, and COMMIT right behind a last statement that `work` returns without awaiting: two
   * round trips fewer. Should that statement fail, PostgreSQL answers the COMMIT with a ROLLBACK, and
   * the transaction rejects with the statement's error, as it would have had `work` awaited it.
   */
  async transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    const sent: Promise<unknown>[] = [];
    const statements = sessionOf(client, this.metrics);
    const session: SqlSession = {
      query: (statement, params) => {
        const rows = statements.query(statement, params);
        rows.catch(() => undefined); // `work` may leave it pending: its failure is reported below
        sent.push(rows);
        return rows;
      },
    };
    try {
      const begun = client.query('BEGIN');
      begun.catch(() => undefined); // awaited below, after `work` when pipelined
      if (!client.pipeline) await begun;
      const result = await work(session);
      await begun; // BEGIN fails only with its connection, which fails every statement after it
      const { command } = await client.query('COMMIT');
      if (command === 'ROLLBACK') throw await firstFailure(sent);
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

/** Why a transaction's COMMIT was a ROLLBACK: the first of its statements that failed. */
async function firstFailure(statements: Promise<unknown>[]): Promise<unknown> {
  const failed = (await Promise.allSettled(statements)).find((outcome) => outcome.status === 'rejected');
  return failed?.reason ?? new Error('The transaction was rolled back');
}

/** The request paths' database access, on the pool DatabaseModule made for them. */
@Injectable()
export class Sql extends PoolSql {
  constructor(@Inject(REQUEST_POOL) pool: Pool, @Optional() metrics?: Metrics) {
    super(pool, metrics);
  }
}

/** One checked-out connection as a SqlSession. */
export function sessionOf(client: PoolClient, metrics?: Metrics): SqlSession {
  return {
    query: <Params extends StatementParams, Row>(statement: Statement<Params, Row>, params: Params) =>
      run(client, statement, params, metrics),
  };
}

@Module({ providers: [Sql], exports: [Sql] })
export class SqlModule {}
