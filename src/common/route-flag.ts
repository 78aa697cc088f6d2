import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

/**
 * A boolean that SetMetadata puts on a route's handler or its controller, read once per route: the
 * Reflector walks reflect-metadata's maps for both on every call, and the global guards ask on
 * every request.
 */
export class RouteFlag {
  private readonly byRoute = new Map<object, Map<object, boolean>>();

  constructor(private readonly key: string) {}

  of(reflector: Reflector, context: ExecutionContext): boolean {
    const [controller, handler] = [context.getClass(), context.getHandler()];
    let flags = this.byRoute.get(controller);
    if (!flags) this.byRoute.set(controller, (flags = new Map<object, boolean>()));
    let flag = flags.get(handler);
    if (flag === undefined) {
      flag = reflector.getAllAndOverride<boolean | undefined>(this.key, [handler, controller]) === true;
      flags.set(handler, flag);
    }
    return flag;
  }
}
