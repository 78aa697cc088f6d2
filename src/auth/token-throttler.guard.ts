import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
} from '@nestjs/throttler';
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
    reflector: Reflector,
    private readonly metrics: Metrics,
  ) {
    super(options, storage, reflector);
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const caller = request.user as Caller | undefined;
    return Promise.resolve(caller ? `token:${caller.teamId}/${caller.tokenId}` : `address:${String(request.ip)}`);
  }

  protected override throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    this.metrics.rateLimitedAnswer();
    return Promise.reject(CommonErrors.rateLimited(Math.max(1, Math.ceil(detail.timeToBlockExpire))));
  }
}
