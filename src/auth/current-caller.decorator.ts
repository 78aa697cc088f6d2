import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Caller } from './caller';

/** The authenticated caller, as BearerStrategy put it on the request. */
export const CurrentCaller = createParamDecorator(
  (_: unknown, context: ExecutionContext): Caller => context.switchToHttp().getRequest<{ user: Caller }>().user,
);
