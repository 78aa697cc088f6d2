import type { Server } from 'node:http';
import { DynamicModule, INestApplication, NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import pino, { DestinationStream } from 'pino';
import { hardenHttp } from './common/http-hardening';
import { StrictValidationPipe } from './common/validation.pipe';
import { setupOpenApi } from './common/openapi/openapi';
import { AppConfig } from './config/app-config';
import { answerClientErrors } from './errors/client-errors';
import { sendError } from './errors/error-response';
import { loggerOptions } from './logging/logger-options';
import { httpMetrics } from './observability/http-metrics';
import { Metrics } from './observability/metrics';
import { requestLogger } from './logging/request-logger';
import { VersionedExpressAdapter } from './safe-writes/versioned-express-adapter';

export const BODY_LIMIT = '1mb';

/**
 * The Nest application on an Express instance that routes strictly: `/V1/...` or a trailing slash
 * names no operation (404) instead of an alias of one; a Versioned result is sent with its ETag.
 * Without Nest's own body parser: configureApp installs the only one. main.ts, the tests and the
 * benchmarks all create the app here.
 */
export function createApp(
  module: DynamicModule,
  options: Omit<NestApplicationOptions, 'bodyParser'> = {},
): Promise<NestExpressApplication> {
  const instance = express();
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return NestFactory.create<NestExpressApplication>(module, new VersionedExpressAdapter(instance), {
    ...options,
    bodyParser: false,
  });
}

/**
 * Everything between "the app exists" and "it listens": logging, body parsing and its errors,
 * validation, OpenAPI. main.ts and the e2e tests both call it, so they cannot drift apart.
 * The app must come from createApp.
 */
export function configureApp(
  app: INestApplication,
  options: { logDestination?: DestinationStream } = {},
): INestApplication {
  const config = app.get(AppConfig);
  const server = app as NestExpressApplication;
  server.disable('x-powered-by');
  server.set('query parser', 'simple');
  // ETags name stored versions (safe-writes/versioned-express-adapter.ts), not hashes of bodies.
  server.set('etag', false);
  const metrics = app.get(Metrics);
  const requestLog = pino(loggerOptions(config), options.logDestination);
  server.use(requestLogger(requestLog, metrics.enabled ? httpMetrics(metrics) : undefined));
  hardenHttp(app, config);
  // Bytes only: the size limit (413) applies as the body is read; JsonBodyGuard parses it after authentication.
  server.use(express.raw({ limit: BODY_LIMIT, type: () => true }));
  // Errors while reading the body (too large, a corrupt or unknown encoding) never reach Nest's filters.
  server.use((error: unknown, req: Request, res: Response, _next: NextFunction) => sendError(error, req, res));
  const logger = app.get(Logger);
  app.useLogger(logger);
  answerClientErrors(app.getHttpServer() as Server, (fields, message) => logger.warn(fields, message));
  app.useGlobalPipes(new StrictValidationPipe());
  setupOpenApi(app);
  return app;
}
