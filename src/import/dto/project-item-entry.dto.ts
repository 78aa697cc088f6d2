import { IsNumericId, IsProjectId, IsTeamId, IsUserId } from './import-rules';

/** What pages and cards have in common: a numerical id, a project and an owner. */
export class ProjectItemEntry {
  @IsTeamId()
  team_id: string;

  @IsNumericId()
  id: string;

  @IsProjectId()
  project_id: string;

  @IsUserId()
  owner_id: string;
}
