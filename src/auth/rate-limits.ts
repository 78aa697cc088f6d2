import { ExecutionContext, SetMetadata } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

const PUBLIC_RATE_LIMIT = 'publicRateLimit';

/** Puts a controller under PUBLIC_RATE_LIMIT_PER_MINUTE (per address) instead of RATE_LIMIT_PER_MINUTE. */
export const PublicRateLimit = () => SetMetadata(PUBLIC_RATE_LIMIT, true);

/** Whether each controller is public, read once: the throttler asks twice per request. */
const publicControllers = new WeakMap<object, boolean>();

/** The throttler's limit for a request's route: 0 means not limited. */
export function rateLimitPerMinute(config: AppConfig, context: ExecutionContext): number {
  const controller = context.getClass();
  let isPublic = publicControllers.get(controller);
  if (isPublic === undefined)
    publicControllers.set(controller, (isPublic = Reflect.getMetadata(PUBLIC_RATE_LIMIT, controller) === true));
  return isPublic ? config.publicRateLimitPerMinute : config.rateLimitPerMinute;
}
