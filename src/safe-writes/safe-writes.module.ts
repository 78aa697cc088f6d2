import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { SqlModule } from '../database/sql';
import { IdempotencyKeySweeper } from './idempotency-key-sweeper';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { VersionsInterceptor } from './versions.interceptor';

/** ETags, If-None-Match and idempotency keys for every route (decisions.md, "Conditional writes and safe retries"). */
@Module({
  imports: [SqlModule],
  providers: [
    // Global interceptors wrap in this order: the ETag of whatever answer the key's handling lets through.
    { provide: APP_INTERCEPTOR, useClass: VersionsInterceptor },
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    IdempotencyKeySweeper,
  ],
})
export class SafeWritesModule {}
