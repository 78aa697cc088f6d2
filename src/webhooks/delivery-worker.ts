import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '../config/app-config';
import { DatabasePools } from '../database/database-pools';
import { PoolSql } from '../database/sql';
import { Metrics } from '../observability/metrics';
import { inLinkedSpan } from '../observability/trace-context';
import { EVENT_RENDERERS, EventRenderers, renderEvent } from './event-payload';
import { send, AttemptResult } from './webhook-sender';
import {
  CLAIM_DELIVERIES,
  ClaimedDelivery,
  DELIVERY_LANES,
  RECORD_ATTEMPTS,
  TRIM_WEBHOOK_DATA,
  WEBHOOK_BACKLOG,
} from './webhook-queries';
import { WebhookSecrets } from './webhook-secrets';

/**
 * At most this many deliveries of one lane of a webhook are attempted at once by one slot, each of a
 * different resource: a claim and a record cost about as much for a batch as for one delivery.
 */
const BATCH_SIZE = 32;

/** How many of a process's slots may send to one webhook at once: half, so a slow receiver leaves the rest. */
const slotsPerWebhook = (concurrency: number) => Math.min(DELIVERY_LANES, Math.ceil(concurrency / 2));

const succeeded = (result: AttemptResult) => result.status !== null && result.status >= 200 && result.status < 300;
const failedAttempt = (error: unknown): AttemptResult => ({ status: null, error: (error as Error).message });

/**
 * Delivers the outbox, in every API process (unless WEBHOOK_DELIVERY=false), on a small pool of its
 * own: WEBHOOK_CONCURRENCY slots, each claiming a batch of one lane of one webhook's due deliveries at a
 * time (CLAIM_DELIVERIES: the lane's advisory lock, its heads FOR UPDATE SKIP LOCKED) and holding those
 * locks in a transaction for the attempts, so that with several processes each delivery is attempted by
 * one of them, and a process that dies mid-attempt leaves them to be retried. Several slots work one
 * webhook at once, each on a lane of its own (at most slotsPerWebhook of them), so its events do not
 * queue behind one batch at a time. Every WEBHOOK_POLL_INTERVAL_MS one idle slot looks (the poll: retries
 * that came due, a lost wake), and a committed write wakes one at once (delivery-wakeups.ts), unless a
 * claim is under way (one that found nothing looks again if a wake came while it ran) or one already
 * looked during the batches in flight, whose slots claim again when they end: a burst costs a claim or
 * two, not one a change. A claim that found work wakes one more slot when another lane was due, for it.
 * Every WEBHOOK_HOUSEKEEPING_INTERVAL_MS it applies the retention and logs the backlog. On shutdown it
 * stops claiming and lets the attempts in flight finish (each is bounded by the 10 s timeout).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  /** The pool's catalogue statements and transactions. */
  private sql: PoolSql | null = null;
  private stopped = false;
  /** The lanes this process's slots are sending to, as `webhookId:lane`. */
  private readonly busy = new Set<string>();
  /** How many of those lanes each webhook has. */
  private readonly busyByWebhook = new Map<string, number>();
  private readonly sleepers = new Set<() => void>();
  /** Bumped by every wake, so that a slot can tell one came while it claimed. */
  private wakes = 0;
  /** Slots whose claim is running: a wake then needs no other slot. */
  private claiming = 0;
  /** A wake sent a slot to look while a batch was in flight: the next wakes until a new batch need not. */
  private lookedDuringBatch = false;
  private slots: Array<Promise<void>> = [];
  private poll: NodeJS.Timeout | null = null;
  private housekeeping: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly pools: DatabasePools,
    private readonly secrets: WebhookSecrets,
    @Inject(EVENT_RENDERERS) private readonly renderers: EventRenderers,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.secrets.warnIfUnsealed(this.logger);
    const settings = this.config.webhooks;
    if (!settings.deliver) return;
    this.sql = new PoolSql(
      this.pools.open({
        max: settings.concurrency + 1,
        application_name: 'workspace-content-api-webhooks',
        // A slot's transaction stays idle while it attempts its batch (up to DELIVERY_TIMEOUT_MS): the
        // request pool's idle-in-transaction limit would end it before the attempts are recorded.
        idle_in_transaction_session_timeout: 0,
        // The outbox tables grow from nothing to thousands of rows between two ANALYZEs: a plan kept from
        // when they were empty scans every delivery for each stream, so each claim is planned on their size now.
        options: '-c plan_cache_mode=force_custom_plan',
      }),
    );
    this.slots = Array.from({ length: settings.concurrency }, () => this.runSlot());
    // One look an interval, whatever the slots: an idle process costs the same with 1 slot as with 64.
    this.poll = setInterval(() => this.sleepers.values().next().value?.(), settings.pollIntervalMs);
    this.poll.unref();
    this.housekeeping = setInterval(() => void this.keepHouse(), settings.housekeepingIntervalMs);
    this.housekeeping.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.poll) clearInterval(this.poll);
    if (this.housekeeping) clearInterval(this.housekeeping);
    this.sleepers.forEach((wake) => wake());
    await Promise.all(this.slots); // DatabasePools ends the pool after this
  }

  /**
   * Deliveries were queued and committed: one idle slot looks now, unless a claim is under way, or one
   * already looked during the batches in flight (whose slots claim again when they end). False when this
   * process has no slot that could take them soon (it does not deliver, or every slot is delivering).
   */
  wake(): boolean {
    this.wakes++;
    if (this.claiming > 0) return true;
    if (this.sleepers.size === 0) return false;
    if (this.busy.size === 0 || !this.lookedDuringBatch) {
      this.lookedDuringBatch = this.busy.size > 0;
      this.sleepers.values().next().value?.();
    }
    return true;
  }

  private async runSlot(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const wakes = this.wakes;
      let worked = false;
      try {
        worked = await this.deliverBatch();
        failures = 0;
      } catch (error) {
        // The database is down or restarting: say so once, and keep polling.
        if (failures++ === 0) this.logger.warn(`Webhook delivery paused: ${(error as Error).message}`);
      }
      const wokenMeanwhile = this.wakes !== wakes && this.busy.size === 0; // else a batch's slot claims after it
      if (!worked && !wokenMeanwhile) await this.sleep();
    }
  }

  /** Until a wake, the poll or the shutdown. */
  private sleep(): Promise<void> {
    // A shutdown that came while this slot claimed found no sleeper to wake: a slot then must not sleep.
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        this.sleepers.delete(wake);
        resolve();
      };
      this.sleepers.add(wake);
    });
  }

  /** What a claim must leave alone: the lanes in flight here, and the webhooks with all the slots they may use. */
  private claimParams() {
    const most = slotsPerWebhook(this.config.webhooks.concurrency);
    const full = [...this.busyByWebhook].filter(([, lanes]) => lanes >= most).map(([webhookId]) => webhookId);
    return { busyLanes: [...this.busy], fullWebhookIds: full, limit: BATCH_SIZE };
  }

  private markBusy(webhookId: string, lane: number, busy: boolean): void {
    const lanes = (this.busyByWebhook.get(webhookId) ?? 0) + (busy ? 1 : -1);
    if (busy) this.busy.add(`${webhookId}:${lane}`);
    else this.busy.delete(`${webhookId}:${lane}`);
    if (lanes > 0) this.busyByWebhook.set(webhookId, lanes);
    else this.busyByWebhook.delete(webhookId);
  }

  /** A claimed batch attempted and recorded, in one transaction; false when nothing was due. */
  private async deliverBatch(): Promise<boolean> {
    const settings = this.config.webhooks;
    const recorded = await this.sql!.transaction(async (tx) => {
      this.claiming++;
      const wakes = this.wakes;
      const claimed = await tx.query(CLAIM_DELIVERIES, this.claimParams()).finally(() => this.claiming--);
      if (claimed.length === 0) return null;
      this.lookedDuringBatch = false;
      const { team_id: teamId, webhook_id: webhookId, lane } = claimed[0];
      this.markBusy(webhookId, lane, true);
      // Another lane was due, or a change committed meanwhile (its wake left to this claim): one more slot looks.
      if (claimed[0].more_due || this.wakes !== wakes) this.sleepers.values().next().value?.();
      try {
        const results = await this.attemptAll(claimed);
        const attempts = claimed.map((delivery) => delivery.attempts + 1);
        const outcomes = await tx.query(RECORD_ATTEMPTS, {
          teamId,
          webhookId,
          eventIds: claimed.map((delivery) => delivery.event_id),
          attempts,
          succeeded: results.map(succeeded),
          statuses: results.map((result) => result.status),
          retryDelaysMs: attempts.map((attempt) => settings.retryBaseMs * 2 ** Math.min(attempt - 1, 30)),
          types: claimed.map((delivery) => delivery.type),
          retryWindowMs: settings.retryWindowMs,
          resourceKeys: claimed.map((delivery) => delivery.resource_key),
          refs: claimed.map((delivery) => delivery.ref),
          eventTimes: claimed.map((delivery) => delivery.event_time),
        });
        return { webhookId, claimed, attempts, results, outcomes };
      } finally {
        this.markBusy(webhookId, lane, false);
      }
    });
    if (!recorded) return false;
    const { webhookId, claimed, attempts, results, outcomes } = recorded;
    const givenUp = new Set(outcomes.filter((row) => row.outcome === 'given_up').map((row) => row.event_id));
    this.countAttempts(claimed, outcomes);
    claimed.forEach((delivery, i) => {
      if (succeeded(results[i])) return;
      this.logger.warn(
        `Webhook ${webhookId}, event ${delivery.event_id}, attempt ${attempts[i]}: ` +
          `${results[i].status ?? results[i].error} (${givenUp.has(delivery.event_id) ? 'given up' : 'will retry'})`,
      );
    });
    return true;
  }

  /**
   * A batch's attempts, all to one webhook: its secret opened once. Whatever fails here (a secret that
   * cannot be opened, an event that cannot be rendered) is a failed attempt, retried later.
   */
  private async attemptAll(claimed: ClaimedDelivery[]): Promise<AttemptResult[]> {
    let signer: Webhook;
    try {
      signer = new Webhook(this.secrets.open(claimed[0].secret));
    } catch (error) {
      return claimed.map(() => failedAttempt(error));
    }
    return Promise.all(claimed.map((delivery) => this.attempt(delivery, signer)));
  }

  /** One delivery's attempt, in a span linked to the request that made its change (when traces are on). */
  private attempt(delivery: ClaimedDelivery, signer: Webhook): Promise<AttemptResult> {
    const attributes = {
      'webhook.id': delivery.webhook_id,
      'webhook.event.id': delivery.event_id,
      'webhook.event.type': delivery.type,
      'webhook.delivery.attempt': delivery.attempts + 1,
    };
    return inLinkedSpan('webhook delivery', delivery.trace_parent, attributes, async (span) => {
      let result: AttemptResult;
      try {
        const body = JSON.stringify(renderEvent(delivery, this.renderers, this.config.publicPagesBaseUrl));
        const attempt = { url: delivery.url, signer, eventId: delivery.event_id, body };
        result = await send(attempt, this.config.webhooks.allowPrivateUrls);
      } catch (error) {
        result = failedAttempt(error);
      }
      if (result.status !== null) span.attribute('http.response.status_code', result.status);
      if (!succeeded(result)) span.failed(result.error ?? `HTTP ${result.status}`);
      return result;
    });
  }

  /** Attempts by outcome; a delivered one's lag from its event's commit (event_time is the transaction's start). */
  private countAttempts(claimed: ClaimedDelivery[], outcomes: Array<{ event_id: string; outcome: string }>): void {
    const times = new Map(claimed.map((delivery) => [delivery.event_id, delivery.event_time]));
    for (const { event_id: eventId, outcome } of outcomes) {
      const time = times.get(eventId);
      const lag = outcome === 'delivered' && time ? (Date.now() - new Date(time).getTime()) / 1000 : undefined;
      this.metrics.webhookAttempt(outcome, lag);
    }
  }

  private async keepHouse(): Promise<void> {
    const sql = this.sql;
    if (!sql || this.stopped) return;
    try {
      const [trimmed] = await sql.query(TRIM_WEBHOOK_DATA, { retentionMs: this.config.webhooks.retentionMs });
      const [backlog] = await sql.query(WEBHOOK_BACKLOG, {});
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
