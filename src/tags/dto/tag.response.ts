import { ApiProperty } from '@nestjs/swagger';
import { TagDto } from '../../cards/dto/card.response';

export class TagResponse {
  @ApiProperty({ type: TagDto })
  tag: TagDto;
}

export class TagListResponse {
  @ApiProperty({ type: [TagDto], description: 'By name ignoring case, then id' })
  tags: TagDto[];

  @ApiProperty({ type: 'integer', description: 'How many tags this answer holds' })
  count: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Fetches what follows (send it as cursor with the same filters); null at the end',
  })
  cursor: string | null;
}
