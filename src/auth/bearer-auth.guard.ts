import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CommonErrors } from '../errors/common-errors';
import { BearerStrategy } from './bearer.strategy';
import { Caller } from './caller';
import { IS_PUBLIC } from './public.decorator';

/** What passport adds to a strategy for one request: how it reports its outcome. */
interface StrategyActions {
  success(caller: Caller): void;
  fail(): void;
  error(error: unknown): void;
}

/**
 * Global and secure by default: every route needs a valid bearer token unless marked @Public().
 * It runs the bearer strategy (passport-http-bearer, through BearerStrategy) as passport.authenticate
 * does: a per-request instance of the strategy, given the actions it reports through, without building
 * passport.authenticate's middleware and @nestjs/passport's AuthGuard around it on every request.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: BearerStrategy,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<Request & { user?: Caller }>();
    return new Promise((resolve, reject) => {
      const actions: StrategyActions = {
        success: (caller) => {
          request.user = caller;
          resolve(true);
        },
        fail: () => reject(CommonErrors.missingToken()),
        error: reject,
      };
      Object.assign(Object.create(this.strategy), actions).authenticate(request, {});
    });
  }
}
