import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, createApp } from './app.setup';
import { ConfigError, loadConfig } from './config/app-config';
import { openDatabaseServer } from './database/database-server';
import { EmbeddedPostgresError } from './database/embedded/embedded-postgres';
import { bootLogger } from './logging/boot-logger';
import { Metrics } from './observability/metrics';
import { closeServer, serveMetrics } from './observability/metrics-server';
import { ProcessLifecycle } from './process-lifecycle';

/** Opens the database, builds the app and listens; every step registered with `lifecycle` to be undone on a stop. */
export async function bootstrap(lifecycle: ProcessLifecycle): Promise<void> {
  const config = loadConfig();
  const boot = bootLogger(config);
  lifecycle.log = (message) => void boot.log(message, 'ProcessLifecycle');
  const database = await lifecycle.start(openDatabaseServer(config), (db) => db.stop());
  // Abandoned at once on a stop: it may retry the database for half a minute, and has started nothing of its own.
  const app = await lifecycle.start(
    createApp(AppModule.forRoot(config, database.url), { logger: boot, abortOnError: false }),
    (created) => created.close(), // stops accepting, lets in-flight requests finish, closes the pool
    { abandonOnStop: true },
  );
  lifecycle.drainOnStop(app.getHttpServer()); // before listening, so every response is counted
  configureApp(app);
  const logger = app.get(Logger);
  lifecycle.log = (message) => logger.log(message, 'ProcessLifecycle');
  await lifecycle.start(app.listen(config.port)); // runs pending migrations first
  logger.log(`Workspace Content API listening on http://localhost:${config.port} (docs at /docs)`);
  if (!config.metrics) return;
  const { port, host } = config.metrics;
  await lifecycle.start(serveMetrics(app.get(Metrics), port, host), closeServer);
  logger.log(`Metrics at http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`);
}

/** What a failed boot prints: the message alone when it says what to do, the stack for the unforeseen. */
export function bootFailure(error: unknown): unknown {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof EmbeddedPostgresError) return error.report();
  return error;
}
