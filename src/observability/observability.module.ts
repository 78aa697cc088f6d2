import { Global, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DatabasePools } from '../database/database-pools';
import { Sql, SqlModule } from '../database/sql';
import { WEBHOOK_BACKLOG } from '../webhooks/webhook-queries';
import { Metrics } from './metrics';

/** Points the gauges read at scrape time at what they read: the pools, and the outbox through the request pool. */
@Injectable()
class MetricSources implements OnModuleInit {
  constructor(
    private readonly metrics: Metrics,
    private readonly pools: DatabasePools,
    private readonly sql: Sql,
  ) {}

  onModuleInit(): void {
    if (!this.metrics.enabled) return;
    this.metrics.watchPools(() => this.pools.named);
    this.metrics.watchBacklog(async () => (await this.sql.query(WEBHOOK_BACKLOG, {}))[0]);
  }
}

/** The app's metrics, for every module to count into; the port is opened by bootstrap.ts only. */
@Global()
@Module({ imports: [SqlModule], providers: [Metrics, MetricSources], exports: [Metrics] })
export class ObservabilityModule {}
