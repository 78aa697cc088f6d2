import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { PoolSql } from '../database/sql';
import { renderEvent } from './event-payload';
import { send, AttemptResult } from './webhook-sender';
import {
  CLAIM_DELIVERY,
  ClaimedDelivery,
  CREATE_ORPHAN_STREAMS,
  RECORD_ATTEMPT,
  TRIM_WEBHOOK_DATA,
  WAKE_ORPHAN_STREAMS,
  WEBHOOK_BACKLOG,
} from './webhook-queries';
import { WebhookSecrets } from './webhook-secrets';

/**
 * Delivers the outbox, in every API process (unless WEBHOOK_DELIVERY=false), on a small pool of its
 * own: WEBHOOK_CONCURRENCY slots, each claiming one due delivery at a time with FOR UPDATE SKIP
 * LOCKED and holding that row lock in a transaction for the attempt, so that with several processes
 * each delivery is attempted by one of them, and a process that dies mid-attempt leaves it to be
 * retried. Idle slots poll every WEBHOOK_POLL_INTERVAL_MS. Every WEBHOOK_HOUSEKEEPING_INTERVAL_MS it
 * applies the retention, gives orphan deliveries their streams and logs the backlog. On shutdown it
 * stops claiming and lets the attempts in flight finish (each is bounded by the 10 s timeout).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private pool: Pool | null = null;
  /** The pool's catalogue statements and transactions. */
  private sql: PoolSql | null = null;
  private stopped = false;
  private readonly busy = new Set<string>();
  private readonly sleepers = new Set<() => void>();
  private slots: Array<Promise<void>> = [];
  private housekeeping: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly db: DataSource,
    private readonly secrets: WebhookSecrets,
  ) {}

  onApplicationBootstrap(): void {
    this.secrets.warnIfUnsealed(this.logger);
    const settings = this.config.webhooks;
    if (!settings.deliver) return;
    this.pool = new Pool({
      connectionString: (this.db.options as { url?: string }).url,
      max: settings.concurrency + 1,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      statement_timeout: this.config.dbStatementTimeoutMs,
      application_name: 'workspace-content-api-webhooks',
      // The outbox tables grow from nothing to thousands of rows between two ANALYZEs: a plan kept from
      // when they were empty scans every delivery for each stream, so each claim is planned on their size now.
      options: '-c plan_cache_mode=force_custom_plan',
    });
    this.sql = new PoolSql(this.pool);
    this.pool.on('error', () => undefined); // an idle connection lost: the pool replaces it
    this.slots = Array.from({ length: settings.concurrency }, () => this.runSlot());
    this.housekeeping = setInterval(() => void this.keepHouse(), settings.housekeepingIntervalMs);
    this.housekeeping.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.housekeeping) clearInterval(this.housekeeping);
    this.sleepers.forEach((wake) => wake());
    await Promise.all(this.slots);
    await this.pool?.end().catch(() => undefined);
  }

  private async runSlot(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let worked = false;
      try {
        worked = await this.deliverOne();
        failures = 0;
      } catch (error) {
        // The database is down or restarting: say so once, and keep polling.
        if (failures++ === 0) this.logger.warn(`Webhook delivery paused: ${(error as Error).message}`);
      }
      if (!worked) await this.sleep(this.config.webhooks.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** One claimed delivery attempted and recorded, in one transaction; false when none was due. */
  private async deliverOne(): Promise<boolean> {
    const recorded = await this.sql!.transaction(async (tx) => {
      const [claimed] = await tx.query(CLAIM_DELIVERY, [[...this.busy]]);
      if (!claimed) return null;
      this.sleepers.values().next().value?.(); // there may be more: one more slot looks
      this.busy.add(claimed.webhook_id);
      try {
        const result = await this.attempt(claimed);
        const attempt = claimed.attempts + 1;
        const succeeded = result.status !== null && result.status >= 200 && result.status < 300;
        const settings = this.config.webhooks;
        const [{ outcome }] = await tx.query(RECORD_ATTEMPT, [
          claimed.team_id,
          claimed.webhook_id,
          claimed.event_id,
          attempt,
          succeeded,
          result.status,
          settings.retryBaseMs * 2 ** Math.min(attempt - 1, 30),
          settings.retryWindowMs,
          claimed.type,
        ]);
        return { claimed, attempt, succeeded, outcome, result };
      } finally {
        this.busy.delete(claimed.webhook_id);
      }
    });
    if (!recorded) return false;
    const { claimed, attempt, succeeded, outcome, result } = recorded;
    if (!succeeded)
      this.logger.warn(
        `Webhook ${claimed.webhook_id}, event ${claimed.event_id}, attempt ${attempt}: ` +
          `${result.status ?? result.error} (${outcome === 'given_up' ? 'given up' : 'will retry'})`,
      );
    return true;
  }

  /** One attempt; whatever fails here (a secret that cannot be opened, say) is a failed attempt, retried later. */
  private async attempt(claimed: ClaimedDelivery): Promise<AttemptResult> {
    try {
      const secret = this.secrets.open(claimed.secret);
      const body = JSON.stringify(renderEvent(claimed, this.config.publicPagesBaseUrl));
      const delivery = { url: claimed.url, secret, eventId: claimed.event_id, body };
      return await send(delivery, this.config.webhooks.allowPrivateUrls);
    } catch (error) {
      return { status: null, error: (error as Error).message };
    }
  }

  private async keepHouse(): Promise<void> {
    const sql = this.sql;
    if (!sql || this.stopped) return;
    try {
      const [trimmed] = await sql.query(TRIM_WEBHOOK_DATA, [this.config.webhooks.retentionMs]);
      await sql.query(CREATE_ORPHAN_STREAMS, []);
      await sql.query(WAKE_ORPHAN_STREAMS, []);
      const [backlog] = await sql.query(WEBHOOK_BACKLOG, []);
      const message =
        `Webhook backlog: ${backlog.pending} pending deliveries` +
        (backlog.oldest_ms === null ? '' : `, the oldest ${Math.round(backlog.oldest_ms / 1000)} s old`) +
        `; trimmed ${trimmed.deliveries} deliveries, ${trimmed.attempts} attempts, ${trimmed.events} events`;
      if (backlog.pending > 0) this.logger.log(message);
      else this.logger.debug(message);
    } catch (error) {
      this.logger.warn(`Webhook housekeeping failed: ${(error as Error).message}`);
    }
  }
}
