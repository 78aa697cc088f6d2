import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsObject, IsString, ValidateNested } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { ImageDto } from '../../common/dto/image.dto';
import { OptionalNonNull, OptionalNullable } from '../../common/patch-semantics';
import { NoteTemplateSectionInput } from './note-template-section.dto';

export const CONTEXT_MAX_LENGTH = 102400;
export const SECTIONS_MAX = 100;

/**
 * Absent keeps a field; see each field for what null does. Lengths count Unicode code points.
 * class-validator checks a property's rules bottom-up, so the type check sits nearest the property.
 */
export class UpdateNoteTemplateDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: INPUT_LIMITS.titleMax,
    pattern: STORABLE_TEXT_PATTERN,
    description: 'Not nullable',
  })
  @OptionalNonNull()
  @CodePoints(1, INPUT_LIMITS.titleMax)
  @IsString()
  title?: string;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: CONTEXT_MAX_LENGTH,
    pattern: STORABLE_TEXT_PATTERN,
    description: 'Instructions. "" or null clears it (reads back as "")',
  })
  @OptionalNullable()
  @CodePoints(0, CONTEXT_MAX_LENGTH)
  @IsString()
  context?: string | null;

  @ApiPropertyOptional({ type: ImageDto, description: 'Not nullable' })
  @OptionalNonNull()
  @ValidateNested()
  @IsObject()
  @Type(() => ImageDto)
  icon?: ImageDto;

  @ApiPropertyOptional({
    type: [NoteTemplateSectionInput],
    nullable: true,
    maxItems: SECTIONS_MAX,
    description: 'Replaces the whole ordered list; [] or null clears it',
  })
  @OptionalNullable()
  @ValidateNested({ each: true })
  @IsObject({ each: true })
  @ArrayMaxSize(SECTIONS_MAX)
  @IsArray()
  @Type(() => NoteTemplateSectionInput)
  sections?: NoteTemplateSectionInput[] | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'null resets to false' })
  @OptionalNullable()
  @IsBoolean()
  ai_actions?: boolean | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true, description: 'null resets to false' })
  @OptionalNullable()
  @IsBoolean()
  is_shared?: boolean | null;
}
