import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Sql } from '../database/sql';
import { SWEEP_KEYS } from './idempotency-queries';

const EVERY_MS = 60_000;
/** Keys deleted per statement: each sweep's transactions stay short whatever piled up. */
const BATCH = 1000;

/**
 * Deletes idempotency keys 24 hours after their claim (answered or not; a dead claim is free before) once a minute,
 * so the table holds about a day of keys. Every server process sweeps; they delete disjoint rows or
 * wait briefly on one another's, and an expired key is taken over by CLAIM_KEY before a sweep reaches it.
 */
@Injectable()
export class IdempotencyKeySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyKeySweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly db: Sql) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep().finally(() => (this.running = undefined));
    }, EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** Sweeps until a batch comes back short; returns how many keys went. */
  async sweep(): Promise<number> {
    let swept = 0;
    try {
      let batch: number;
      do {
        batch = (await this.db.query(SWEEP_KEYS, { limit: BATCH })).length;
        swept += batch;
      } while (batch >= BATCH);
    } catch (error) {
      this.logger.warn(`Sweeping expired idempotency keys failed (retried in a minute): ${String(error)}`);
    }
    if (swept > 0) this.logger.log(`Swept ${swept} expired idempotency keys`);
    return swept;
  }
}
