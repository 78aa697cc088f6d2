import { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { AppConfig } from '../config/app-config';
import { CommonErrors } from '../errors/common-errors';
import { sendError } from '../errors/error-response';

/**
 * Security headers (helmet; the browsable /docs keeps a CSP loose enough for Swagger UI's inline
 * styles and scripts), CORS only for configured origins, and a deadline after which a request that
 * is still running is answered with a 503 rather than holding its client.
 */
export function hardenHttp(app: INestApplication, config: AppConfig): void {
  const api = helmet();
  const docs = helmet({ contentSecurityPolicy: false });
  app.use((req: Request, res: Response, next: NextFunction) =>
    (req.path.startsWith('/docs') ? docs : api)(req, res, next),
  );
  if (config.corsOrigins) {
    app.enableCors({
      origin: config.corsOrigins,
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
      exposedHeaders: ['X-Request-Id', 'Retry-After'],
      maxAge: 600,
    });
  }
  app.use(requestDeadline(config.requestTimeoutMs));
}

function requestDeadline(limitMs: number): RequestHandler {
  return (req, res, next) => {
    const timer = setTimeout(() => {
      if (!res.headersSent) sendError(CommonErrors.requestTimeout(limitMs), req, res);
    }, limitMs);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    next();
  };
}
