import { IsIn, IsOptional, IsString } from 'class-validator';
import { Role, ROLES } from '../../auth/caller';
import { OptionalNonNull } from '../../common/patch-semantics';
import { IsProjectId, IsTeamId, IsUserId } from './import-rules';

export class WorkspaceEntry {
  @IsTeamId()
  id: string;

  @OptionalNonNull()
  @IsString()
  name?: string;
}

/** People exist across workspaces; a workspace sees them through members. */
export class UserEntry {
  @IsUserId()
  id: string;

  @OptionalNonNull()
  @IsString()
  name?: string;

  @IsOptional()
  @IsString()
  email?: string | null;
}

export class MemberEntry {
  @IsTeamId()
  team_id: string;

  @IsUserId()
  user_id: string;

  @IsIn(ROLES)
  role: Role;
}

export class ProjectEntry {
  @IsTeamId()
  team_id: string;

  @IsProjectId()
  id: string;

  @OptionalNonNull()
  @IsString()
  title?: string;
}
