import { Client } from 'pg';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from '../../migrations';

const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

/** The one DataSource definition, shared by the app, the CLI, the migration commands and the tests. */
export function dataSourceOptions(url: string, config: AppConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // Bulk work (migrations, import, export) may read whole tables and runs each statement once: the planner
    // chooses its scan and plans with the statement's values (Citus prunes shards by them).
    extra: { ...poolSettings(config), options: undefined },
  };
}

/** The request pool's settings (pg-pool's; TypeORM's pool takes them too, with its own planner options). */
export function poolSettings(config: AppConfig) {
  return {
    max: config.dbPoolSize,
    // A database that cannot be reached fails fast (503) instead of holding the request.
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    statement_timeout: config.dbStatementTimeoutMs,
    query_timeout: config.dbStatementTimeoutMs + 1000,
    Client: DropOnReadTimeoutClient,
    idle_in_transaction_session_timeout: config.dbStatementTimeoutMs * 2,
    application_name: 'workspace-content-api',
    // Catalogue statements are written for one plan whatever their parameters (switches are one-time filters);
    // left to choose, PostgreSQL keeps planning them per execution, which costs more than running them.
    // Each reaches its rows by key, so no sequential scans: a plan made while a table was empty would
    // otherwise read the whole table for as long as the connection keeps it (until the table's next ANALYZE).
    options: `${GENERIC_PLANS} -c enable_seqscan=off`,
  };
}

/**
 * A connection whose query got no answer within query_timeout (a server that stopped answering) is
 * still busy with that query: the next statement on it, the ROLLBACK, would wait a whole
 * query_timeout more, and the pool would take it back stuck. So it is dropped: what follows on it
 * fails at once, and the pool opens a new one when it needs one.
 */
class DropOnReadTimeoutClient extends Client {
  // Overloads of pg's query; TypeORM and pg-pool use the forms that return a promise or take a callback.
  query(...args: unknown[]): never {
    const drop = (error: unknown) => {
      if ((error as Error | undefined)?.message === 'Query read timeout')
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    };
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, ...rest: unknown[]) => void;
      args[last] = (error: unknown, ...rest: unknown[]) => {
        drop(error);
        callback(error, ...rest);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result.catch(drop);
    return result as never;
  }
}
