import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { configureApp, createApp } from '../../src/app.setup';
import { loadConfig } from '../../src/config/app-config';
import { ImportService } from '../../src/import/import.service';
import { SeedableAppModule } from '../../support/seedable-app.module';
import { BenchDatabase, openBenchDatabase } from './bench-database';

export interface BenchApp {
  app: NestExpressApplication;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  baseUrl: string;
  database: BenchDatabase;
  /** The app's own DataSource, for checks and EXPLAIN after a run (never inside a measurement). */
  db: DataSource;
  /** Seeds through the same import path as `npm run cli -- import`. */
  importDocument(document: object): Promise<void>;
  /** Stops the app, then deletes the throwaway database (if one was started). */
  close(): Promise<void>;
}

/**
 * The real service, built the way src/main.ts builds it (loadConfig, AppModule.forRoot, configureApp) plus the import,
 * listening on a free port of 127.0.0.1, with migrations applied at boot, logging silenced and no rate
 * limit. `env` overrides both and the environment (e.g. `{ DB_POOL_SIZE: '20' }`).
 */
export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  const database = await openBenchDatabase();
  try {
    // No rate limit: a benchmark sends thousands of requests with one token.
    const config = loadConfig(process.env, {
      RUN_MIGRATIONS: 'true',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_RATE_LIMIT_PER_MINUTE: '0',
      ...env,
      DATABASE_URL: database.url,
      PORT: '0',
    });
    const app = await createApp(SeedableAppModule.forRoot(config, database.url), { logger: false });
    configureApp(app);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    const close = async () => {
      process.off('SIGINT', interrupted);
      await app.close();
      await database.close();
    };
    // Ctrl-C mid-run still deletes the throwaway cluster instead of leaving a postgres running.
    const interrupted = () => void close().finally(() => process.exit(130));
    process.once('SIGINT', interrupted);
    return {
      app,
      baseUrl: `http://127.0.0.1:${port}`,
      database,
      db: app.get(DataSource),
      importDocument: async (document) => void (await app.get(ImportService).importDocument(document)),
      close,
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
