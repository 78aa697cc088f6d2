import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app-config';
import { openDatabaseServer } from './database/database-server';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabaseServer(config);
  try {
    const app = await NestFactory.create(AppModule.forRoot(config, database.url), { bodyParser: false, bufferLogs: true });
    configureApp(app);
    await app.listen(config.port);
    const logger = app.get(Logger);
    logger.log(`Workspace Content API listening on http://localhost:${config.port} (docs at /docs)`);

    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.log(`${signal}: finishing in-flight requests, then closing the database`);
      await app.close(); // stops accepting, lets in-flight requests finish, closes the pool
      await database.stop();
      process.exit(0);
    };
    process.once('SIGTERM', () => void shutdown('SIGTERM'));
    process.once('SIGINT', () => void shutdown('SIGINT'));
  } catch (error) {
    await database.stop();
    throw error;
  }
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
