import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { LoggerModule } from 'nestjs-pino';
import { AuthChangeListener } from './auth/auth-change-listener';
import { AuthModule } from './auth/auth.module';
import { CardsModule } from './cards/cards.module';
import { TagsModule } from './tags/tags.module';
import { BearerAuthGuard } from './auth/bearer-auth.guard';
import { RateLimitStorage } from './auth/rate-limit.storage';
import { rateLimitPerMinute } from './auth/rate-limits';
import { TokenThrottlerGuard } from './auth/token-throttler.guard';
import { JsonBodyGuard } from './common/json-body.guard';
import { AppConfig } from './config/app-config';
import { AppConfigModule } from './config/app-config.module';
import { DatabaseModule } from './database/database.module';
import { AllExceptionsFilter } from './errors/all-exceptions.filter';
import { ALL_EVENT_RENDERERS } from './event-renderers';
import { HealthModule } from './health/health.module';
import { NotesModule } from './notes/notes.module';
import { ObservabilityModule } from './observability/observability.module';
import { PagesModule } from './pages/pages.module';
import { PublicPagesModule } from './public-pages/public-pages.module';
import { IdempotencyGuard } from './safe-writes/idempotency.guard';
import { SafeWritesModule } from './safe-writes/safe-writes.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { WorkspaceAccessGuard } from './workspaces/workspace-access.guard';

@Module({})
export class AppModule {
  /** The whole service, on the database at `databaseUrl`. */
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: AppModule,
      imports: [
        // The request log (logging/request-logger.ts) is attached in configureApp, ahead of body parsing, so that
        // every request is logged. forRoutes []: no request-scoped logger. Requests log through req.log; nestjs-pino's
        // per-request AsyncLocalStorage would turn on promise hooks for every promise (Node 20), for Nest
        // log lines a request never writes.
        LoggerModule.forRoot({ pinoHttp: { level: config.logLevel }, useExisting: true, forRoutes: [] }),
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(config, databaseUrl),
        ObservabilityModule,
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: 60_000, limit: (context) => rateLimitPerMinute(config, context) }],
          skipIf: (context) => rateLimitPerMinute(config, context) === 0,
          storage: new RateLimitStorage(),
        }),
        AuthModule,
        HealthModule,
        SafeWritesModule,
        NotesModule,
        PagesModule,
        CardsModule,
        TagsModule,
        WebhooksModule.forRoot(ALL_EVENT_RENDERERS),
        PublicPagesModule,
      ],
      providers: [
        // Here rather than in AuthModule: only the server listens, not the CLI, which imports AuthModule too.
        AuthChangeListener,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Global guards run in this order: token (401), rate limit (429), team_id shape and membership (400/403),
        // then the body (415/400), then the idempotency key (400/422/409, or a replay).
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        { provide: APP_GUARD, useClass: TokenThrottlerGuard },
        { provide: APP_GUARD, useClass: WorkspaceAccessGuard },
        { provide: APP_GUARD, useClass: JsonBodyGuard },
        { provide: APP_GUARD, useExisting: IdempotencyGuard },
      ],
    };
  }
}
