import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source-options';
import { openDatabaseServer } from '../database/database-server';
import { checkDatabaseUrl } from '../database/database-url-check';
import { CliModule } from './cli.module';
import { StderrLogger } from './stderr-logger';

/**
 * Runs `work` against the server's database: the embedded one under DATA_DIR (started if the
 * server is not running, and then stopped again, whatever happens) or DATABASE_URL.
 */
async function withDatabase<T>(work: (url: string, config: AppConfig) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabaseServer(config);
  try {
    await checkDatabaseUrl(config); // a wrong DATABASE_URL is said as the service says it
    return await work(database.url, config);
  } finally {
    await database.stop();
  }
}

/** Runs `work` with the services of CliModule, after applying pending migrations (unless RUN_MIGRATIONS=false). */
export function withServices<T>(work: (app: INestApplicationContext, config: AppConfig) => Promise<T>): Promise<T> {
  return withDatabase(async (url, config) => {
    // Quiet unless asked: a failure is reported once, as the command's `error:` line.
    const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
    const app = await NestFactory.createApplicationContext(CliModule.forRoot(config, url), {
      logger: verbose ? new StderrLogger({ colors: process.stderr.isTTY }) : false,
      abortOnError: false,
    });
    try {
      return await work(app, config);
    } finally {
      await app.close();
    }
  });
}

/** Runs `work` on a bare DataSource, which applies no migration by itself. */
export function withDataSource<T>(work: (db: DataSource) => Promise<T>): Promise<T> {
  return withDatabase(async (url, config) => {
    const db = await new DataSource(dataSourceOptions(url, config)).initialize();
    try {
      return await work(db);
    } finally {
      await db.destroy();
    }
  });
}
