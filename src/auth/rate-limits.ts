import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

const PUBLIC_RATE_LIMIT = 'publicRateLimit';

/** Puts a controller under PUBLIC_RATE_LIMIT_PER_MINUTE (per address) instead of RATE_LIMIT_PER_MINUTE. */
export const PublicRateLimit = () => SetMetadata(PUBLIC_RATE_LIMIT, true);

/** The throttler's limit for a request's route: 0 means not limited. */
export function rateLimitPerMinute(config: AppConfig, context: ExecutionContext): number {
  return Reflect.getMetadata(PUBLIC_RATE_LIMIT, context.getClass()) === true
    ? config.publicRateLimitPerMinute
    : config.rateLimitPerMinute;
}
