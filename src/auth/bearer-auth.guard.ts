import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { CommonErrors } from '../errors/common-errors';
import { IS_PUBLIC } from './public.decorator';

/** Global and secure by default: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super({ session: false });
  }

  canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    return isPublic ? true : super.canActivate(context);
  }

  handleRequest<TUser>(error: unknown, caller: TUser | false): TUser {
    if (error) throw error;
    if (!caller) throw CommonErrors.missingToken();
    return caller;
  }
}
