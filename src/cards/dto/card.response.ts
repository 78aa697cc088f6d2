import { ApiProperty } from '@nestjs/swagger';
import { ActorDto } from '../../common/dto/actor.dto';

export class TagDto {
  @ApiProperty({ description: 'Numerical string' })
  id: string;

  @ApiProperty()
  team_id: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'null for a workspace-wide tag' })
  project_id: string | null;

  @ApiProperty()
  name: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  color: string;

  @ApiProperty({ type: 'integer', description: 'How many cards carry this tag' })
  total_cards: number;
}

export class CardMemberDto {
  @ApiProperty()
  user_id: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime (ms)' })
  assigned_date: number;
}

export class CardDto {
  @ApiProperty({ description: 'Numerical string' })
  id: string;

  @ApiProperty()
  team_id: string;

  @ApiProperty()
  project_id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ description: 'User id of the card owner' })
  owner_id: string;

  @ApiProperty({ type: [CardMemberDto] })
  members: CardMemberDto[];

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime (ms)' })
  time_created: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'STime (ms); changes only when a tag was attached or the card changed',
  })
  time_updated: number;

  @ApiProperty({ type: ActorDto })
  user: ActorDto;

  @ApiProperty({ type: ActorDto })
  user_updated: ActorDto;

  @ApiProperty({ type: [TagDto], description: 'In the order attached' })
  tags: TagDto[];
}

export class CardResponse {
  @ApiProperty({ type: CardDto })
  card: CardDto;
}
