import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { IdempotencyKeySweeper } from './idempotency-key-sweeper';
import { IdempotencyGuard } from './idempotency.guard';

/**
 * Idempotency keys for every write (decisions.md, "Conditional writes and safe retries"): the guard,
 * which AppModule puts last among the global guards, and the sweeper. ETags: VersionedExpressAdapter.
 */
@Module({
  imports: [SqlModule],
  providers: [IdempotencyGuard, IdempotencyKeySweeper],
  exports: [IdempotencyGuard],
})
export class SafeWritesModule {}
