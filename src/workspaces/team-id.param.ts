import { PathParam } from '../common/path-param';
import { TEAM_ID_PATTERN } from './workspace-access.guard';

/** Every workspace route's `team_id`; WorkspaceAccessGuard has checked its shape and the caller's membership. */
export const TeamIdParam = () => PathParam('team_id', { pattern: TEAM_ID_PATTERN, description: 'The workspace (externally "team")' });
