import { Logger as PinoLogger } from 'pino';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, createApp } from './app.setup';
import { AppConfig } from './config/app-config';
import { bootLogger } from './logging/boot-logger';
import { Metrics } from './observability/metrics';
import { closeServer, serveMetrics } from './observability/metrics-server';
import { ProcessLifecycle } from './process-lifecycle';

/**
 * Builds the app on the database at `databaseUrl`, listens (running pending migrations first), then opens
 * the metrics port: each step registered with `lifecycle` to be undone on a stop.
 */
export async function serve(
  lifecycle: ProcessLifecycle,
  config: AppConfig,
  databaseUrl: string,
  log: PinoLogger,
): Promise<void> {
  // Abandoned at once on a stop: what it opens (the pools) ends with the process.
  const app = await lifecycle.start(
    createApp(AppModule.forRoot(config, databaseUrl), { logger: bootLogger(log), abortOnError: false }),
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
