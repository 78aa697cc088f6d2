import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { TEAM_ID_PATTERN } from './workspace-access.guard';

/** Path parameters every workspace route has; feature path DTOs extend it. */
export class TeamPath {
  @ApiProperty({ pattern: TEAM_ID_PATTERN.source, description: 'The workspace (externally "team")' })
  @Matches(TEAM_ID_PATTERN, { message: 'team_id must be 1 to 64 letters or digits' })
  team_id: string;
}
