import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from '../../migrations';

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
    extra: {
      max: config.dbPoolSize,
      // A database that cannot be reached fails fast (503) instead of holding the request.
      connectionTimeoutMillis: config.dbConnectTimeoutMs,
      statement_timeout: config.dbStatementTimeoutMs,
      query_timeout: config.dbStatementTimeoutMs + 1000,
      idle_in_transaction_session_timeout: config.dbStatementTimeoutMs * 2,
      application_name: 'workspace-content-api',
    },
  };
}
