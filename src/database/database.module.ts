import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DatabaseListener } from './database-listener';
import { DatabasePools, REQUEST_POOL } from './database-pools';
import { dataSourceOptions } from './data-source-options';
import { PendingMigrationsOnBoot } from './pending-migrations';

/**
 * The database the app and the CLI open: TypeORM's DataSource (global, as TypeOrmModule.forRoot makes it)
 * for the migrations, the import and export and the CLI; the request paths' pg pool, which SqlModule's Sql
 * runs on, and DatabasePools for any other (the delivery worker's), the one LISTEN/NOTIFY connection
 * (DatabaseListener), all from the validated configuration;
 * and the pending migrations applied at boot.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: DatabaseModule,
      // No retries: the boot (database-url-check.ts) or the command has reached the database already, and says
      // why it could not; TypeORM's retries would only repeat one sentence that names no cause for half a minute.
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, config), retryAttempts: 0 })],
      providers: [
        { provide: DatabasePools, useValue: new DatabasePools(config, databaseUrl) },
        { provide: REQUEST_POOL, useFactory: (pools: DatabasePools) => pools.open(), inject: [DatabasePools] },
        { provide: DatabaseListener, useValue: new DatabaseListener(config, databaseUrl) },
        PendingMigrationsOnBoot,
      ],
      exports: [DatabasePools, REQUEST_POOL, DatabaseListener],
    };
  }
}
