import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import type { Counter, Histogram, Registry } from 'prom-client';
import { AppConfig } from '../config/app-config';

/** OpenTelemetry's recommended buckets for request and operation durations (seconds). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** A webhook's lag from commit to delivery: from a poll interval to the retry window's scale. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400];

/** What the webhook backlog gauges read at each scrape. */
export type BacklogReader = () => Promise<{ pending: number; oldest_ms: number | null }>;

/**
 * The service's Prometheus metrics, in a registry of this app's own (tests run several apps in one
 * process). With METRICS_PORT=0 nothing is registered and every method returns at once. Names follow
 * the OpenTelemetry semantic conventions as Prometheus spells them (README, "Watching it").
 */
@Injectable()
export class Metrics {
  /** Undefined when metrics are off. */
  readonly registry?: Registry;
  readonly enabled: boolean;
  private readonly httpDuration?: Histogram<'http_request_method' | 'http_route' | 'http_response_status_code'>;
  private readonly statementDuration?: Histogram<'db_statement'>;
  private readonly statementErrors?: Counter<'db_statement' | 'sqlstate_class'>;
  private readonly webhookAttempts?: Counter<'outcome'>;
  private readonly webhookLag?: Histogram;
  private readonly idempotency?: Counter<'outcome'>;
  private readonly rateLimited?: Counter;
  private readonly tokenCache?: Counter<'result'>;
  private pools: () => ReadonlyMap<string, Pool> = () => new Map();
  private backlog?: BacklogReader;

  constructor(config: AppConfig) {
    this.enabled = config.metrics !== undefined;
    if (!this.enabled) return;
    // Loaded only when metrics are on: prom-client brings @opentelemetry/api, which must not load otherwise.
    const prom = loadPromClient();
    const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = prom;
    this.registry = new Registry();
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP requests, by method, route template and status code.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.statementDuration = new Histogram({
      name: 'db_client_operation_duration_seconds',
      help: "Duration of the request paths' catalogue statements, by statement name.",
      labelNames: ['db_statement'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.statementErrors = new Counter({
      name: 'db_client_operation_errors_total',
      help: 'Catalogue statements that failed, by statement name and SQLSTATE class (none: no SQLSTATE).',
      labelNames: ['db_statement', 'sqlstate_class'],
      registers,
    });
    const pools = () => this.pools();
    const poolGauge = (name: string, help: string, read: (pool: Pool) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers,
        collect() {
          for (const [pool, client] of pools()) this.set({ pool }, read(client));
        },
      });
    poolGauge('db_client_connections', 'Connections the pg pool holds (idle and in use).', (p) => p.totalCount);
    poolGauge('db_client_connections_idle', 'Idle connections of the pg pool.', (p) => p.idleCount);
    poolGauge(
      'db_client_connections_pending_requests',
      'Callers waiting for a pool connection.',
      (p) => p.waitingCount,
    );
    const backlog = () => this.backlog;
    let oldest = 0;
    new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries waiting to be delivered (every process sees the whole outbox).',
      registers,
      async collect() {
        const read = backlog();
        if (!read) return;
        const row = await read().catch(() => null);
        if (!row) return;
        this.set(row.pending);
        oldest = (row.oldest_ms ?? 0) / 1000;
      },
    });
    new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: "Age of the oldest pending delivery's event (0 when none is pending).",
      registers,
      collect() {
        this.set(oldest); // read with webhook_deliveries_pending, registered first
      },
    });
    this.webhookAttempts = new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by this process, by outcome (delivered, retrying, given_up).',
      labelNames: ['outcome'],
      registers,
    });
    this.webhookLag = new Histogram({
      name: 'webhook_delivery_lag_seconds',
      help: "From a change's commit to its first successful delivery to a webhook.",
      buckets: LAG_BUCKETS,
      registers,
    });
    this.idempotency = new Counter({
      name: 'idempotency_answers_total',
      help: 'Requests with an Idempotency-Key answered from the key: replayed, in_use (409), reused (422).',
      labelNames: ['outcome'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'http_server_rate_limited_total',
      help: 'Requests answered 429 by the rate limit.',
      registers,
    });
    this.tokenCache = new Counter({
      name: 'token_cache_lookups_total',
      help: 'Bearer token lookups, by whether the cache answered (hit) or the database did (miss).',
      labelNames: ['result'],
      registers,
    });
  }

  /** A request answered; `route` is its template (`/v1/workspaces/:teamId/pages/:pageId`), never the raw path. */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration?.observe(
      { http_request_method: method, http_route: route, http_response_status_code: String(status) },
      seconds,
    );
  }

  statement(name: string, seconds: number, error?: unknown): void {
    this.statementDuration?.observe({ db_statement: name }, seconds);
    if (error === undefined || !this.statementErrors) return;
    const code = (error as { code?: unknown }).code;
    const sqlstateClass = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code.slice(0, 2) : 'none';
    this.statementErrors.inc({ db_statement: name, sqlstate_class: sqlstateClass });
  }

  /** The pg pools whose connections are counted, by name, as they are at each scrape. */
  watchPools(pools: () => ReadonlyMap<string, Pool>): void {
    this.pools = pools;
  }

  /** How the backlog gauges read the outbox (the delivery worker's pool, when it runs). */
  watchBacklog(read: BacklogReader): void {
    this.backlog = read;
  }

  webhookAttempt(outcome: string, lagSeconds?: number): void {
    this.webhookAttempts?.inc({ outcome });
    if (lagSeconds !== undefined) this.webhookLag?.observe(Math.max(0, lagSeconds));
  }

  idempotencyAnswer(outcome: 'replayed' | 'in_use' | 'reused'): void {
    this.idempotency?.inc({ outcome });
  }

  rateLimitedAnswer(): void {
    this.rateLimited?.inc();
  }

  tokenLookup(hit: boolean): void {
    this.tokenCache?.inc({ result: hit ? 'hit' : 'miss' });
  }
}

/** prom-client, required on first use only (a static import would load it, and @opentelemetry/api, always). */
function loadPromClient(): typeof import('prom-client') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('prom-client') as typeof import('prom-client');
}
