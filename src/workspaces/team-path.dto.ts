import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { TEAM_ID_PATTERN } from './workspace-access.guard';

/** Path parameters every workspace route has; feature path DTOs extend it. */
export class TeamPath {
  @ApiProperty({ pattern: TEAM_ID_PATTERN.source, description: 'The workspace (externally "team")' })
  // Its shape is checked earlier, by WorkspaceAccessGuard (before membership); this only allows the field.
  @IsString()
  team_id: string;
}
