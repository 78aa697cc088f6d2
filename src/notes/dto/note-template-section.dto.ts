import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { OptionalNonNull } from '../../common/patch-semantics';

export class NoteTemplateSectionInput {
  @ApiProperty()
  @IsString()
  title: string;

  @ApiPropertyOptional({ description: 'Absent reads back as ""' })
  @OptionalNonNull()
  @IsString()
  description?: string;
}
