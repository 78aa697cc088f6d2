import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ActorDto } from '../../common/dto/actor.dto';
import { ImageDto } from '../../common/dto/image.dto';

export class NoteTemplateSectionDto {
  @ApiProperty()
  title: string;

  @ApiProperty()
  description: string;
}

export class NoteTemplateDto {
  @ApiProperty()
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ maxLength: 102400, description: 'Instructions; "" when cleared' })
  context: string;

  @ApiProperty({ type: [NoteTemplateSectionDto], description: 'Ordered; [] when cleared' })
  sections: NoteTemplateSectionDto[];

  @ApiProperty()
  ai_actions: boolean;

  @ApiPropertyOptional({ type: ImageDto, description: 'Absent when the template has no icon' })
  icon?: ImageDto;

  @ApiProperty({ type: ActorDto, description: 'Creator' })
  user: ActorDto;

  @ApiProperty({ type: ActorDto, description: 'Last updater' })
  user_updated: ActorDto;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime (ms)' })
  time_created: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'STime (ms); unchanged by an update that changes nothing',
  })
  time_updated: number;

  @ApiProperty({ type: 'boolean' })
  is_shared: boolean;

  @ApiProperty({ type: 'boolean', description: 'Whether the caller favourited it' })
  is_favourited: boolean;
}

export class NoteTemplateResponse {
  @ApiProperty({ type: NoteTemplateDto })
  note_template: NoteTemplateDto;
}
