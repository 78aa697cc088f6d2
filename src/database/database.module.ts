import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule, TypeOrmModuleOptions } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { PendingMigrationsOnBoot } from './pending-migrations';
import { SqlModule } from './sql';

/**
 * The database the app and the CLI open: TypeORM's DataSource (global, as TypeOrmModule.forRoot makes it),
 * the Sql pool the request paths use through SqlModule, and the pending migrations applied at boot.
 */
@Module({})
export class DatabaseModule {
  static forRoot(
    config: AppConfig,
    databaseUrl: string,
    connecting: Pick<TypeOrmModuleOptions, 'retryAttempts'> = {},
  ): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, config), ...connecting }), SqlModule],
      providers: [PendingMigrationsOnBoot],
    };
  }
}
