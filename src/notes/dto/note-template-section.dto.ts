import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { OptionalNonNull } from '../../common/patch-semantics';

export class NoteTemplateSectionInput {
  @ApiProperty({ maxLength: INPUT_LIMITS.titleMax, pattern: STORABLE_TEXT_PATTERN })
  @CodePoints(0, INPUT_LIMITS.titleMax)
  @IsString()
  title: string;

  @ApiPropertyOptional({
    maxLength: INPUT_LIMITS.sectionDescriptionMax,
    pattern: STORABLE_TEXT_PATTERN,
    description: 'Absent reads back as ""',
  })
  @OptionalNonNull()
  @CodePoints(0, INPUT_LIMITS.sectionDescriptionMax)
  @IsString()
  description?: string;
}
