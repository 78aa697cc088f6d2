import { Injectable, Optional } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../observability/metrics';
import { Caller } from './caller';

/** The most tokens remembered at once; past it, the least recently used go first. */
const MAX_TOKENS = 10_000;

/**
 * Token lookups (token hash -> Caller) remembered for TOKEN_CACHE_TTL_MS, so a request needs no round
 * trip for its token. Correctness rests on knowing when to
 * forget, so the cache is used only while it is `live`: while AuthChangeListener holds a LISTEN on
 * `auth_changed`, which every change to tokens or members notifies (migration 0005; on Citus, from the
 * coordinator: docs/citus.md). A notification
 * empties it; so does losing the listener, which also stops its use until it listens again. The TTL
 * bounds what a lost notification could cost. In processes without a listener (the CLI) it is never
 * live. Unknown tokens are never remembered: they cost a lookup each, and cannot fill the cache.
 */
@Injectable()
export class TokenCache {
  private readonly entries: LRUCache<string, Caller> | null;
  private live = false;
  /** Bumped whenever the cache is emptied: a lookup that started before must not store its answer. */
  private generation = 0;

  constructor(
    config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.entries =
      config.tokenCacheTtlMs > 0
        ? new LRUCache({ max: MAX_TOKENS, ttl: config.tokenCacheTtlMs, ttlAutopurge: false })
        : null;
  }

  get(tokenHash: string): Caller | undefined {
    const found = this.live ? this.entries?.get(tokenHash) : undefined;
    this.metrics?.tokenLookup(found !== undefined);
    return found;
  }

  /** What `remember` must be given back: the state when the lookup began. */
  begin(): number {
    return this.generation;
  }

  /**
   * Stores a lookup's answer, unless the cache was emptied since `begin` (a change may have landed
   * between the read and now) or is not live. A token that expires sooner than the TTL is kept only
   * until then.
   */
  remember(tokenHash: string, caller: Caller, expiresAt: Date | null, generation: number): void {
    if (!this.entries || !this.live || generation !== this.generation) return;
    const ttl = expiresAt ? Math.min(this.entries.ttl, expiresAt.getTime() - Date.now()) : this.entries.ttl;
    if (ttl > 0) this.entries.set(tokenHash, deepFreeze(caller), { ttl });
  }

  /** Something changed tokens or members: forget everything. */
  invalidate(): void {
    this.generation++;
    this.entries?.clear();
  }

  /** Called by the listener: true once it listens, false when it lost its connection. */
  setLive(live: boolean): void {
    this.invalidate();
    this.live = live;
  }
}

/** One Caller serves many requests: nothing may change it. */
function deepFreeze<T extends object>(value: T): T {
  for (const field of Object.values(value)) if (field && typeof field === 'object') deepFreeze(field);
  return Object.freeze(value);
}
