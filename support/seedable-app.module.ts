import { DynamicModule, Module } from '@nestjs/common';
import { AppModule } from '../src/app.module';
import { AppConfig } from '../src/config/app-config';
import { ExportModule } from '../src/export/export.module';
import { ImportModule } from '../src/import/import.module';

/**
 * The service as main.ts builds it, plus what the tests and benchmarks seed and read its database
 * through: the import and the export the command line runs.
 */
@Module({})
export class SeedableAppModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return { module: SeedableAppModule, imports: [AppModule.forRoot(config, databaseUrl), ImportModule, ExportModule] };
  }
}
