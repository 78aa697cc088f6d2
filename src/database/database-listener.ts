import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '../config/app-config';
import { named } from './named-parameters';

const RETRY_MS = [250, 500, 1000, 2000, 5000];

/** What a channel's owner hears: its notifications from other connections, and whether it listens. */
export interface ChannelHandlers {
  notified(): void;
  /** True once the channel is listened to, false when the connection is lost (notifications may be missed). */
  live(live: boolean): void;
}

/**
 * The process's one connection of its own (not from a pool) for LISTEN/NOTIFY, shared by every channel:
 * it connects when the first channel is listened to, LISTENs on each, and reconnects with backoff when it
 * fails, telling each channel it lost and regained it. Notifications this connection sent itself are not
 * passed on. Only the server listens (the CLI registers no channel, so never connects).
 */
export class DatabaseListener implements OnApplicationShutdown {
  private readonly logger = new Logger('DatabaseListener');
  private readonly channels = new Map<string, ChannelHandlers>();
  private client: Client | null = null;
  /** The client once it listens on every channel: the one notify() sends on. */
  private ready: Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private attempts = 0;
  private stopped = false;

  constructor(
    private readonly config: AppConfig,
    private readonly databaseUrl: string,
  ) {}

  /** Listens on `channel` from now on (channel names are fixed identifiers of the code, never input). */
  listen(channel: string, handlers: ChannelHandlers): void {
    this.channels.set(channel, handlers);
    if (this.ready)
      void this.ready.query(`LISTEN ${channel}`).then(
        () => handlers.live(true),
        () => undefined,
      );
    else if (!this.client && !this.retry && !this.stopped) void this.connect();
  }

  /**
   * Sends an empty notification on `channel`, in a statement of its own on this connection (no table, no
   * transaction of a write); false when the connection is not up, and nothing is sent.
   */
  async notify(channel: string): Promise<boolean> {
    const client = this.ready;
    if (!client) return false;
    try {
      await client.query(...named('SELECT pg_notify(:channel, NULL)', { channel }));
      return true;
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.ready = null;
    this.channels.forEach((handlers) => handlers.live(false));
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      keepAlive: true,
      application_name: 'workspace-content-api-listener',
    });
    this.client = client;
    client.on('notification', (message) => {
      if (message.processId !== (client as unknown as { processID: number }).processID)
        this.channels.get(message.channel)?.notified();
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const channels = [...this.channels.keys()];
      await client.query(channels.map((channel) => `LISTEN ${channel};`).join(' '));
      if (this.stopped || this.client !== client) return;
      this.attempts = 0;
      this.ready = client;
      channels.forEach((channel) => this.channels.get(channel)?.live(true));
    } catch {
      this.lost(client);
    }
  }

  /** The connection failed or ended: every channel may miss notifications until it is back. */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.ready = null;
    this.channels.forEach((handlers) => handlers.live(false));
    client.end().catch(() => undefined);
    if (this.stopped) return;
    const delay = RETRY_MS[Math.min(this.attempts++, RETRY_MS.length - 1)];
    if (this.attempts === 1) this.logger.warn(`Lost the LISTEN connection; connecting again in ${delay} ms`);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, delay);
    this.retry.unref();
  }
}
