import { ObservabilityModule } from '../observability/observability.module';
import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AppConfig } from '../config/app-config';
import { AppConfigModule } from '../config/app-config.module';
import { DatabaseModule } from '../database/database.module';
import { DemoModule } from '../demo/demo.module';
import { ExportModule } from '../export/export.module';
import { ImportModule } from '../import/import.module';

/** What the commands need: the database (migrated as the server would), tokens, the import, the export and the demo. */
@Module({})
export class CliModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, databaseUrl),
        // Counts nothing here, but AuthModule's and the writes' providers take it.
        ObservabilityModule,
        AuthModule,
        ImportModule,
        ExportModule,
        DemoModule,
      ],
    };
  }
}
