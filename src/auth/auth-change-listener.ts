import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { TokenCache } from './token-cache';

const CHANNEL = 'auth_changed';
const RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * Holds one connection of its own (not from the pool) that LISTENs on `auth_changed` and empties the
 * TokenCache on every notification. The cache is live only while this connection is: when it fails
 * (the database restarted, say) the cache is emptied and bypassed, and the listener reconnects with
 * backoff. Only the server runs it; with TOKEN_CACHE_TTL_MS=0 it does not connect at all.
 */
@Injectable()
export class AuthChangeListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuthChangeListener.name);
  private client: Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private attempts = 0;
  private stopped = false;

  constructor(
    private readonly cache: TokenCache,
    private readonly config: AppConfig,
    private readonly db: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.tokenCacheTtlMs > 0) void this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.cache.setLive(false);
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({
      connectionString: (this.db.options as { url?: string }).url,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      keepAlive: true,
      application_name: 'workspace-content-api-auth-listener',
    });
    this.client = client;
    client.on('notification', () => this.cache.invalidate());
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (this.stopped || this.client !== client) return;
      this.attempts = 0;
      this.cache.setLive(true);
    } catch {
      this.lost(client);
    }
  }

  /** The connection failed or ended: stop trusting the cache, and listen again unless stopping. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.cache.setLive(false);
    client.end().catch(() => undefined);
    if (this.stopped) return;
    const delay = RETRY_MS[Math.min(this.attempts++, RETRY_MS.length - 1)];
    if (this.attempts === 1)
      this.logger.warn(`Lost the ${CHANNEL} listener; token lookups go to the database until it is back`);
    this.retry = setTimeout(() => void this.listen(), delay);
    this.retry.unref();
  }
}
