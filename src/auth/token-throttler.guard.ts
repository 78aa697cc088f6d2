import { ExecutionContext, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
import { RouteMetadata } from '../common/route-metadata';
import { CommonErrors } from '../errors/common-errors';
import { Metrics } from '../observability/metrics';
import { Caller } from './caller';

/**
 * The rate limit (@nestjs/throttler), counted per token: it runs after authentication, so callers
 * are told apart by token id; a request without one (a public route) counts against its address.
 * Counters live in this process: with several instances, each allows the limit.
 */
@Injectable()
export class TokenThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    private readonly metrics: Metrics,
  ) {
    // The library reads six route keys per request; their answers never change.
    super(options, storage, new RouteMetadata());
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const caller = request.user as Caller | undefined;
    return Promise.resolve(caller ? `token:${caller.teamId}/${caller.tokenId}` : `address:${String(request.ip)}`);
  }

  /**
   * The library's key (route, throttler, tracker) without its SHA-256: it names a counter in this
   * process's memory only (RateLimitStorage), and the tracker is a token's id or an address.
   */
  protected override generateKey(context: ExecutionContext, tracker: string, throttler: string): string {
    return `${context.getClass().name}-${context.getHandler().name}-${throttler}-${tracker}`;
  }

  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    this.metrics.rateLimitedAnswer();
    return Promise.reject(CommonErrors.rateLimited(Math.max(1, Math.ceil(detail.timeToBlockExpire))));
  }
}
