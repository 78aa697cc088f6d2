import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source-options';
import { PendingMigrationsOnBoot } from '../database/pending-migrations';
import { SqlModule } from '../database/sql';
import { ImportModule } from '../import/import.module';

/** What the data commands need: the database (migrated as the server would) and the import services. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      // Global, as AppModule: AppConfig reaches the providers of the modules below (TokenCache).
      global: true,
      imports: [
        // A command fails at once instead of retrying for half a minute.
        TypeOrmModule.forRoot({ ...dataSourceOptions(databaseUrl, config), retryAttempts: 0 }),
        SqlModule,
        ImportModule,
      ],
      providers: [{ provide: AppConfig, useValue: config }, PendingMigrationsOnBoot],
      exports: [AppConfig],
    };
  }
}
