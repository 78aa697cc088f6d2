import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { AppConfig } from '../config/app-config';
import { DatabasePools } from '../database/database-pools';
import { CitusProbe } from '../database/citus/citus-probe';
import { PoolSql } from '../database/sql';
import { SqlSession } from '../database/statement';
import { Metrics } from '../observability/metrics';
import { inLinkedSpan } from '../observability/trace-context';
import { EVENT_RENDERERS, EventRenderers, renderEvent } from './event-payload';
import { send, AttemptResult } from './webhook-sender';
import {
  CLAIM_DELIVERIES,
  DUE_WEBHOOKS,
  CLAIM_WORKSPACE_DELIVERIES,
  DueWebhook,
  WorkspaceDelivery,
  RECORD_ATTEMPTS,
  TRIM_WEBHOOK_DATA,
  WEBHOOK_BACKLOG,
  WORKSPACES_TO_TRIM,
} from './webhook-queries';
import { WebhookSecrets } from './webhook-secrets';

/**
 * At most this many deliveries of one webhook are attempted at once by one slot, each of a different
 * resource: a claim and a record cost about as much for a batch as for one delivery.
 */
const BATCH_SIZE = 32;
/** The webhooks due a claim tries, in order, until one is not being sent to by another process. */
const CANDIDATES = 8;
/** The workspaces one housekeeping run trims at most; the next run takes the rest. */
const TRIMMED_WORKSPACES = 100;

/** A claimed batch, and whether other webhooks had deliveries due (another slot then looks). */
interface Batch {
  claimed: WorkspaceDelivery[];
  othersDue: boolean;
}

const succeeded = (result: AttemptResult) => result.status !== null && result.status >= 200 && result.status < 300;
const failedAttempt = (error: unknown): AttemptResult => ({ status: null, error: (error as Error).message });

/**
 * Delivers the outbox, in every API process (unless WEBHOOK_DELIVERY=false), on a small pool of its
 * own: WEBHOOK_CONCURRENCY slots, each claiming a batch of one webhook's due deliveries at a time with
 * FOR UPDATE SKIP LOCKED and holding those row locks in a transaction for the attempts, so that with
 * several processes each delivery is attempted by one of them, and a process that dies mid-attempt
 * leaves them to be retried. Idle slots poll every WEBHOOK_POLL_INTERVAL_MS, and a committed write wakes
 * one of them at once (delivery-wakeups.ts), unless a claim is under way (one that found nothing looks
 * again if a wake came while it ran) or one already looked during the batch in flight, whose slot
 * claims again when it ends: a burst costs a claim or two, not one a change. Every
 * WEBHOOK_HOUSEKEEPING_INTERVAL_MS it applies the retention and logs the backlog. On shutdown it stops
 * claiming and lets the attempts in flight finish (each is bounded by the 10 s timeout).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  /** The pool's catalogue statements and transactions. */
  private sql: PoolSql | null = null;
  private citus: CitusProbe | null = null;
  private stopped = false;
  private readonly busy = new Set<string>();
  private readonly sleepers = new Set<() => void>();
  /** Bumped by every wake, so that a slot can tell one came while it claimed. */
  private wakes = 0;
  /** Slots whose claim is running: a wake then needs no other slot. */
  private claiming = 0;
  /** A wake sent a slot to look while a batch was in flight: the next wakes until a new batch need not. */
  private lookedDuringBatch = false;
  private slots: Array<Promise<void>> = [];
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
        // A batch's BEGIN goes out with its claim, and its COMMIT with its record: four round trips become two.
        pipeline: true,
        // The outbox tables grow from nothing to thousands of rows between two ANALYZEs: a plan kept from
        // when they were empty scans every delivery for each stream, so each claim is planned on their size now.
        options: '-c plan_cache_mode=force_custom_plan',
      }),
    );
    this.citus = new CitusProbe(this.sql);
    this.slots = Array.from({ length: settings.concurrency }, () => this.runSlot());
    this.housekeeping = setInterval(() => void this.keepHouse(), settings.housekeepingIntervalMs);
    this.housekeeping.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.housekeeping) clearInterval(this.housekeeping);
    this.sleepers.forEach((wake) => wake());
    await Promise.all(this.slots); // DatabasePools ends the pool after this
  }

  /**
   * Deliveries were queued and committed: one idle slot looks now, unless a claim is under way, or one
   * already looked during the batch in flight (whose slot claims again when it ends). False when this
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
      if (!worked && !wokenMeanwhile) await this.sleep(this.config.webhooks.pollIntervalMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    // A shutdown that came while this slot claimed found no sleeper to wake: a slot then must not sleep.
    if (this.stopped) return Promise.resolve();
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

  /**
   * A claimed batch attempted and recorded, in one transaction; false when nothing was due, or every
   * webhook due was being sent to by another process.
   */
  private async deliverBatch(): Promise<boolean> {
    const settings = this.config.webhooks;
    // On Citus the webhooks due are read first, outside the transaction: it then holds one shard, not all.
    const due = (await this.citus!.isCitus())
      ? await this.sql!.query(DUE_WEBHOOKS, { busyWebhookIds: [...this.busy], limit: CANDIDATES })
      : null;
    if (due?.length === 0) return false;
    const recorded = await this.sql!.transaction(async (tx) => {
      this.claiming++;
      const { claimed, othersDue } = await (due ? this.claimInWorkspace(tx, due) : this.claim(tx)).finally(
        () => this.claiming--,
      );
      if (claimed.length === 0) return null;
      this.lookedDuringBatch = false;
      if (othersDue) this.sleepers.values().next().value?.(); // one more slot takes the next webhook
      const { team_id: teamId, webhook_id: webhookId } = claimed[0];
      this.busy.add(webhookId);
      try {
        const results = await this.attemptAll(claimed);
        const attempts = claimed.map((delivery) => delivery.attempts + 1);
        // Not awaited: on the worker's pipelined connections COMMIT goes out right behind it (PoolSql.transaction).
        const outcomes = tx.query(RECORD_ATTEMPTS, {
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
        this.busy.delete(webhookId);
      }
    });
    if (!recorded) return false;
    const { webhookId, claimed, attempts, results } = recorded;
    const outcomes = await recorded.outcomes;
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

  /** One PostgreSQL: the batch of the webhook due first that no other transaction sends to, in one statement. */
  private async claim(tx: SqlSession): Promise<Batch> {
    const claimed = await tx.query(CLAIM_DELIVERIES, { busyWebhookIds: [...this.busy], limit: BATCH_SIZE });
    return { claimed, othersDue: claimed[0]?.others_due ?? false };
  }

  /**
   * Citus, which takes no lock in a statement across shards: of the webhooks `due` (read without one), the
   * batch of the first that no other transaction sends to, claimed within its workspace (one shard).
   */
  private async claimInWorkspace(tx: SqlSession, due: DueWebhook[]): Promise<Batch> {
    for (const { team_id: teamId, webhook_id: webhookId } of due) {
      const claimed = await tx.query(CLAIM_WORKSPACE_DELIVERIES, { teamId, webhookId, limit: BATCH_SIZE });
      if (claimed.length > 0) return { claimed, othersDue: due.length > 1 };
    }
    return { claimed: [], othersDue: false };
  }

  /**
   * A batch's attempts, all to one webhook: its secret opened once. Whatever fails here (a secret that
   * cannot be opened, an event that cannot be rendered) is a failed attempt, retried later.
   */
  private async attemptAll(claimed: WorkspaceDelivery[]): Promise<AttemptResult[]> {
    let signer: Webhook;
    try {
      signer = new Webhook(this.secrets.open(claimed[0].secret));
    } catch (error) {
      return claimed.map(() => failedAttempt(error));
    }
    return Promise.all(claimed.map((delivery) => this.attempt(delivery, signer)));
  }

  /** One delivery's attempt, in a span linked to the request that made its change (when traces are on). */
  private attempt(delivery: WorkspaceDelivery, signer: Webhook): Promise<AttemptResult> {
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
  private countAttempts(claimed: WorkspaceDelivery[], outcomes: Array<{ event_id: string; outcome: string }>): void {
    const times = new Map(claimed.map((delivery) => [delivery.event_id, delivery.event_time]));
    for (const { event_id: eventId, outcome } of outcomes) {
      const time = times.get(eventId);
      const lag = outcome === 'delivered' && time ? (Date.now() - new Date(time).getTime()) / 1000 : undefined;
      this.metrics.webhookAttempt(outcome, lag);
    }
  }

  /** The retention, one workspace at a time (each trim locks rows of one only). */
  private async trim(sql: PoolSql): Promise<{ deliveries: number; attempts: number; events: number }> {
    const { retentionMs } = this.config.webhooks;
    const trimmed = { deliveries: 0, attempts: 0, events: 0 };
    for (const { team_id: teamId } of await sql.query(WORKSPACES_TO_TRIM, { retentionMs, limit: TRIMMED_WORKSPACES })) {
      const [counts] = await sql.query(TRIM_WEBHOOK_DATA, { teamId, retentionMs });
      trimmed.deliveries += counts.deliveries;
      trimmed.attempts += counts.attempts;
      trimmed.events += counts.events;
    }
    return trimmed;
  }

  private async keepHouse(): Promise<void> {
    const sql = this.sql;
    if (!sql || this.stopped) return;
    try {
      const trimmed = await this.trim(sql);
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
