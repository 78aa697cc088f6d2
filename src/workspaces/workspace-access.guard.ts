import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Caller } from '../auth/caller';
import { TEAM_ID_SHAPE } from '../common/id-shapes';
import { RouteFlag } from '../common/route-flag';
import { CommonErrors } from '../errors/common-errors';
import { limitedToListedResources, MANAGERS_ONLY, mayManage, mayWrite, NOT_FOR_GUESTS } from './role-permissions';

const FOR_MANAGERS = new RouteFlag(MANAGERS_ONLY);
const NOT_GUESTS = new RouteFlag(NOT_FOR_GUESTS);

/**
 * Runs after authentication on every route with a team_id: the team_id's shape (400), then
 * membership (the token's workspace) and, for writes and for routes marked @ManagersOnly(), the role
 * (403) — before any lookup, so a refusal reveals nothing about what exists in the workspace.
 */
@Injectable()
export class WorkspaceAccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const teamId = request.params?.team_id as string | undefined;
    if (teamId === undefined) return true;
    if (!TEAM_ID_SHAPE.pattern.test(teamId)) throw CommonErrors.invalidTeamId();
    const caller = request.user as Caller;
    if (caller.teamId !== teamId) throw CommonErrors.accessDenied();
    if (isWrite(request.method) && !mayWrite(caller.role)) throw CommonErrors.accessDenied();
    if (FOR_MANAGERS.of(this.reflector, context) && !mayManage(caller.role)) throw CommonErrors.accessDenied();
    if (limitedToListedResources(caller.role) && NOT_GUESTS.of(this.reflector, context))
      throw CommonErrors.accessDenied();
    return true;
  }
}

function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}
