import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { CanonicalId, NUMERIC_ID_PATTERN } from '../../common/numeric-id';
import { TeamPath } from '../../workspaces/team-path.dto';

export class CardPath extends TeamPath {
  @ApiProperty({ pattern: NUMERIC_ID_PATTERN.source, description: 'Numerical string identifying a card' })
  @Matches(NUMERIC_ID_PATTERN, { message: 'card_id must be a numerical string of 1 to 19 digits' })
  @CanonicalId()
  card_id: string;
}
