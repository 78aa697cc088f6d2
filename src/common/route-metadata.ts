import { Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

type Target = Type | ((...args: never[]) => unknown);

/**
 * A Reflector whose getAllAndOverride answers each (key, handler, controller) once: decorators set
 * metadata when classes are defined, never later, and reflect-metadata walks its maps for every
 * target on every call. For a library guard that asks on every request (@nestjs/throttler: six keys).
 */
export class RouteMetadata extends Reflector {
  private readonly answers = new Map<unknown, WeakMap<Target, WeakMap<Target, { value: unknown }>>>();

  override getAllAndOverride(key: any, targets: Target[]): any {
    if (targets.length !== 2) return super.getAllAndOverride(key, targets);
    const [handler, controller] = targets;
    let byHandler = this.answers.get(key);
    if (!byHandler) this.answers.set(key, (byHandler = new WeakMap()));
    let byController = byHandler.get(handler);
    if (!byController) byHandler.set(handler, (byController = new WeakMap()));
    let answer = byController.get(controller);
    if (!answer) byController.set(controller, (answer = { value: super.getAllAndOverride(key, targets) }));
    return answer.value;
  }
}
