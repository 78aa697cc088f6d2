import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RouteFlag } from '../common/route-flag';
import { BearerStrategy } from './bearer.strategy';
import { Caller } from './caller';
import { IS_PUBLIC } from './public.decorator';

const PUBLIC = new RouteFlag(IS_PUBLIC);

/** What passport adds to a strategy for one request: how it reports its outcome. */
interface StrategyActions {
  success(caller: Caller): void;
  fail(): void;
  error(error: unknown): void;
}

/**
 * Global and secure by default: every route needs a valid bearer token unless marked @Public().
 * It runs BearerStrategy as passport.authenticate would, on a per-request instance given the actions
 * it reports through, without passport's middleware around it; the strategy decides every 401.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: BearerStrategy,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (PUBLIC.of(this.reflector, context)) return true;
    const request = context.switchToHttp().getRequest<Request & { user?: Caller }>();
    return new Promise((resolve, reject) => {
      const actions: StrategyActions = {
        success: (caller) => {
          request.user = caller;
          resolve(true);
        },
        fail: () => reject(this.strategy.noToken()),
        error: reject,
      };
      Object.assign(Object.create(this.strategy) as BearerStrategy, actions).authenticate(request, {});
    });
  }
}
