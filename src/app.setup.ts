import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import pinoHttp from 'pino-http';
import { hardenHttp } from './common/http-hardening';
import { StrictValidationPipe } from './common/validation.pipe';
import { setupOpenApi } from './common/openapi/openapi';
import { AppConfig } from './config/app-config';
import { sendError } from './errors/error-response';
import { httpLoggerOptions } from './logging/http-logger.options';

export const BODY_LIMIT = '1mb';

/**
 * Everything between "the app exists" and "it listens": logging, body parsing and its errors,
 * validation, OpenAPI. main.ts and the e2e tests both call it, so they cannot drift apart.
 * The app must be created with `{ bodyParser: false }` so that this parser is the only one.
 */
export function configureApp(app: INestApplication, options: { logDestination?: DestinationStream } = {}): INestApplication {
  const config = app.get(AppConfig);
  const server = app as NestExpressApplication;
  server.disable('x-powered-by');
  server.set('query parser', 'simple');
  server.use(pinoHttp(httpLoggerOptions(config), options.logDestination));
  hardenHttp(app, config);
  // Bytes only: the size limit (413) applies as the body is read; JsonBodyGuard parses it after authentication.
  server.use(express.raw({ limit: BODY_LIMIT, type: () => true }));
  // Errors while reading the body (too large, a corrupt or unknown encoding) never reach Nest's filters.
  server.use((error: unknown, req: Request, res: Response, _next: NextFunction) => sendError(error, req, res));
  app.useLogger(app.get(Logger));
  app.useGlobalPipes(new StrictValidationPipe());
  setupOpenApi(app);
  return app;
}
