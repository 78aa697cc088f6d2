import { TEAM_ID_SHAPE } from '../common/id-shapes';
import { PathParam } from '../common/path-param';

/** Every workspace route's `team_id`; WorkspaceAccessGuard has checked its shape and the caller's membership. */
export const TeamIdParam = () =>
  PathParam('team_id', {
    pattern: TEAM_ID_SHAPE.pattern,
    maxLength: TEAM_ID_SHAPE.maxLength,
    description: 'The workspace (externally "team")',
  });
