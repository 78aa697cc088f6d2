import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsDefined, IsInt, IsString, Max, Min } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { MatchesIdShape, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { OptionalNonNull } from '../../common/patch-semantics';
import { UpdatePageDto } from './update-page.dto';

/** A page's content and schema, as a creation takes them (decisions.md, "The content lifecycle"). */
export const PAGE_CONTENT_LIMITS = { contentMax: 500_000, schemaMin: 1, schemaMax: 1000 } as const;

/** The fields a creation shares with the update, with the update's rules; the rest has its defaults. */
export class CreatePageDto extends PickType(UpdatePageDto, [
  'title',
  'font',
  'icon',
  'cover_image',
  'parent_page_id',
  'position',
  'is_public',
  'public_settings',
  'hide_table_of_contents',
  'hide_subpages',
] as const) {
  @ApiProperty({
    pattern: PROJECT_ID_SHAPE.pattern.source,
    maxLength: PROJECT_ID_SHAPE.maxLength,
    description: 'The project the page belongs to; with parent_page_id, the parent must be of this project',
  })
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  @IsDefined({ message: '$property is required' })
  project_id!: string;

  @ApiPropertyOptional({
    maxLength: PAGE_CONTENT_LIMITS.contentMax,
    pattern: STORABLE_TEXT_PATTERN,
    description: 'The HTML body (code points); default ""',
  })
  @OptionalNonNull()
  @CodePoints(0, PAGE_CONTENT_LIMITS.contentMax)
  @IsString()
  content?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: PAGE_CONTENT_LIMITS.schemaMin,
    maximum: PAGE_CONTENT_LIMITS.schemaMax,
    description: "The content's schema version; default 1",
  })
  @OptionalNonNull()
  @Max(PAGE_CONTENT_LIMITS.schemaMax)
  @Min(PAGE_CONTENT_LIMITS.schemaMin)
  @IsInt()
  schema?: number;
}
