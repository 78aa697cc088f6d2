import { Global, Injectable, Module } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Something that runs one statement and gives its rows: the pool (`Sql`) or one transaction's
 * connection. TypeORM's EntityManager fits it too, so helpers shared with the import (which still
 * runs on TypeORM) take either.
 */
export interface SqlSession {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(text: string, params?: unknown[]): Promise<any>;
}

/**
 * The statements of the request paths, sent straight to pg on the pool TypeORM opened (same
 * settings: timeouts, size, DropOnReadTimeoutClient). Every statement there is hand-written SQL, so
 * TypeORM's query runners, event broadcasts and result wrapping were only cost: about an eighth of
 * the CPU of a template PATCH (issue 5). Rows come back as pg gives them, for UPDATE ... RETURNING
 * too. TypeORM keeps the migrations, the import and export, and the CLI.
 */
@Injectable()
export class Sql implements SqlSession {
  private readonly pool: Pool;

  constructor(db: DataSource) {
    this.pool = (db.driver as PostgresDriver).master as Pool;
  }

  async query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]> {
    return (await this.pool.query(text, params)).rows as T[];
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
      await client.query('START TRANSACTION');
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

/** One connection as a SqlSession: rows only, as EntityManager#query gives them. */
export function sessionOf(client: PoolClient): SqlSession {
  return { query: async (text, params) => (await client.query(text, params)).rows };
}

@Global()
@Module({ providers: [Sql], exports: [Sql] })
export class SqlModule {}
