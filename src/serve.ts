import { Logger as PinoLogger } from 'pino';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, createApp } from './app.setup';
import { isPortInUse, PortInUseError } from './common/port-in-use';
import { AppConfig, MetricsSettings } from './config/app-config';
import { bootLogger } from './logging/boot-logger';
import { Metrics } from './observability/metrics';
import { closeServer, listeningPort, serveMetrics } from './observability/metrics-server';
import { ProcessLifecycle } from './process-lifecycle';

/**
 * Builds the app on the database at `databaseUrl`, opens the metrics port, then listens (running pending
 * migrations first): each step registered with `lifecycle` to be undone on a stop.
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
  // Before the API's port: a boot that cannot serve its metrics never takes a request.
  if (config.metrics) {
    const metrics = await lifecycle.start(serveMetrics(app.get(Metrics), config.metrics), closeServer);
    logMetricsPort(log, config.metrics, listeningPort(metrics));
  }
  await lifecycle.start(app.listen(config.port).catch(namingPort(config.port))); // runs pending migrations first
  logger.log(`Workspace Content API listening on http://localhost:${config.port} (docs at /docs)`);
}

function logMetricsPort(log: PinoLogger, { port, host }: MetricsSettings, listening: number): void {
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${listening}/metrics`;
  if (listening === port) return log.info({ context: 'Metrics', url }, `Metrics at ${url}`);
  const instead = `port ${port} is in use by another process, so metrics are at ${url}`;
  log.warn({ context: 'Metrics', url }, `${instead} (set METRICS_PORT to choose the port)`);
}

/** The API's port taken: said naming PORT. */
const namingPort =
  (port: number) =>
  (error: unknown): never => {
    if (!isPortInUse(error)) throw error;
    throw new PortInUseError('PORT', port, 'every address', 'stop that process, or set PORT to a free port');
  };
