import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** How often records with nothing left to count are dropped, as the library's own storage does. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The expiry times of one throttler's counted hits, oldest first. Expired hits leave from the front,
 * so counting costs what expired since the last count, not one step per hit still in the window.
 */
class HitWindow {
  private expiries: number[] = [];
  private first = 0;

  count(now: number): number {
    const expiries = this.expiries;
    let first = this.first;
    while (first < expiries.length && expiries[first] <= now) first++;
    // Drop the expired prefix once it is the larger part, so the array stays as long as the window.
    if (first > 1024 && first * 2 >= expiries.length) {
      this.expiries = expiries.slice(first);
      first = 0;
    }
    this.first = first;
    return this.expiries.length - first;
  }

  add(expiresAt: number): void {
    const expiries = this.expiries;
    if (expiries.length === this.first || expiries[expiries.length - 1] <= expiresAt) {
      expiries.push(expiresAt);
      return;
    }
    // The clock went back: keep the order, so the front is still the next to expire.
    let low = this.first;
    let high = expiries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (expiries[middle] <= expiresAt) low = middle + 1;
      else high = middle;
    }
    expiries.splice(low, 0, expiresAt);
  }

  /** The next hit to expire; only when count() > 0. */
  oldest(): number {
    return this.expiries[this.first];
  }

  hasLive(now: number): boolean {
    return this.expiries.length > this.first && this.expiries[this.expiries.length - 1] > now;
  }

  clear(): void {
    this.expiries = [];
    this.first = 0;
  }
}

interface RateLimitRecord {
  hits: Map<string, HitWindow>;
  expiresAt: number;
  isBlocked: boolean;
  blockExpiresAt: number;
}

/**
 * @nestjs/throttler's in-memory storage with the same answers (ThrottlerStorageService: a sliding
 * window of hits per key and throttler, a block of blockDuration once past the limit), but counting
 * a key's live hits in constant time: the library filters every hit still in the window on every
 * request, a cost that grows with the limit and the request rate.
 */
export class RateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly records = new Map<string, RateLimitRecord>();
  private readonly sweep = setInterval(() => this.evictIdleRecords(Date.now()), SWEEP_INTERVAL_MS).unref();

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.hit(key, ttl, limit, blockDuration, throttlerName));
  }

  private hit(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    const now = Date.now();
    let record = this.records.get(key);
    if (!record) {
      record = { hits: new Map(), expiresAt: now + ttl, blockExpiresAt: 0, isBlocked: false };
      this.records.set(key, record);
    }
    let hits = record.hits.get(throttlerName);
    if (!hits) {
      hits = new HitWindow();
      record.hits.set(throttlerName, hits);
    }
    let totalHits = hits.count(now);
    let timeToExpire = Math.ceil((record.expiresAt - now) / 1000);
    if (timeToExpire <= 0) {
      record.expiresAt = now + ttl;
      timeToExpire = Math.ceil(ttl / 1000);
    }
    if (blockDuration <= 0) {
      const isBlocked = totalHits >= limit;
      if (!isBlocked) {
        hits.add(now + ttl);
        totalHits++;
      }
      const timeToBlockExpire = totalHits > 0 ? Math.ceil((hits.oldest() - now) / 1000) : timeToExpire;
      return {
        totalHits: totalHits + (isBlocked ? 1 : 0),
        timeToExpire,
        isBlocked,
        timeToBlockExpire: isBlocked ? timeToBlockExpire : 0,
      };
    }
    if (!record.isBlocked) {
      hits.add(now + ttl);
      totalHits++;
      if (totalHits > limit) {
        record.isBlocked = true;
        record.blockExpiresAt = now + blockDuration;
      }
    }
    const timeToBlockExpire = Math.ceil((record.blockExpiresAt - now) / 1000);
    if (timeToBlockExpire <= 0 && record.isBlocked) {
      record.isBlocked = false;
      hits.clear();
      hits.add(now + ttl);
      totalHits = 1;
    }
    return { totalHits, timeToExpire, isBlocked: record.isBlocked, timeToBlockExpire };
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweep);
    this.records.clear();
  }

  private evictIdleRecords(now: number): void {
    for (const [key, record] of this.records) {
      if ((record.isBlocked && record.blockExpiresAt > now) || record.expiresAt > now) continue;
      if ([...record.hits.values()].some((hits) => hits.hasLive(now))) continue;
      this.records.delete(key);
    }
  }
}
