import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from './app-config';

/** The validated configuration, as the AppConfig provider. */
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      // Global as @nestjs/config's is: the value exists only at boot, so a feature module cannot import it by itself.
      global: true,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
