import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { CanonicalId, NUMERIC_ID_PATTERN } from '../../common/numeric-id';
import { TeamPath } from '../../workspaces/team-path.dto';

export class PagePath extends TeamPath {
  @ApiProperty({ pattern: NUMERIC_ID_PATTERN.source, description: 'Numerical string identifying a page' })
  @Matches(NUMERIC_ID_PATTERN, { message: 'page_id must be a numerical string of 1 to 19 digits' })
  @CanonicalId()
  page_id: string;
}
