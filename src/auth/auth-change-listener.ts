import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DatabaseListener } from '../database/database-listener';
import { TokenCache } from './token-cache';
import { AUTH_CHANGED_CHANNEL } from './auth-changes';

/**
 * LISTENs on `auth_changed` (on the process's one listening connection, database-listener.ts) and
 * empties the TokenCache on every notification. The cache is live only while that connection is: when
 * it fails (the database restarted, say) the cache is emptied and bypassed until it listens again. Only
 * the server runs it; with TOKEN_CACHE_TTL_MS=0 it does not listen at all.
 */
@Injectable()
export class AuthChangeListener implements OnApplicationBootstrap {
  constructor(
    private readonly cache: TokenCache,
    private readonly config: AppConfig,
    private readonly listener: DatabaseListener,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.tokenCacheTtlMs <= 0) return;
    this.listener.listen(AUTH_CHANGED_CHANNEL, {
      notified: () => this.cache.invalidate(),
      live: (live) => this.cache.setLive(live),
    });
  }
}
