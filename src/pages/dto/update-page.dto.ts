import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsObject, IsString, Max, Min, ValidateNested } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { MatchesIdShape, PARENT_PAGE_ID_SHAPE, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { CanonicalId } from '../../common/numeric-id';
import { ImageDto } from '../../common/dto/image.dto';
import { INPUT_LIMITS } from '../../common/input-limits';
import { nullableRef } from '../../common/openapi/nullable-ref';
import { OptionalNonNull, OptionalNullable } from '../../common/patch-semantics';
import { PAGE_FONTS, PageFont } from '../page-options';
import { CoverImageDto } from './cover-image.dto';
import { PublicSettingsInput } from './public-settings.dto';

/**
 * Only the fields sent change. class-validator checks a property's rules bottom-up, so the type
 * check sits nearest the property.
 */
export class UpdatePageDto {
  @ApiPropertyOptional({
    maxLength: INPUT_LIMITS.titleMax,
    pattern: STORABLE_TEXT_PATTERN,
    description: 'Not nullable',
  })
  @OptionalNonNull()
  @CodePoints(0, INPUT_LIMITS.titleMax)
  @IsString()
  title?: string;

  @ApiPropertyOptional({ enum: PAGE_FONTS })
  @OptionalNonNull()
  @IsIn(PAGE_FONTS)
  font?: PageFont;

  @ApiPropertyOptional(nullableRef(ImageDto, 'null clears it'))
  @OptionalNullable()
  @ValidateNested()
  @IsObject()
  @Type(() => ImageDto)
  icon?: ImageDto | null;

  @ApiPropertyOptional(nullableRef(CoverImageDto, 'null clears it'))
  @OptionalNullable()
  @ValidateNested()
  @IsObject()
  @Type(() => CoverImageDto)
  cover_image?: CoverImageDto | null;

  @ApiPropertyOptional({
    pattern: PROJECT_ID_SHAPE.pattern.source,
    maxLength: PROJECT_ID_SHAPE.maxLength,
    description: "Moves the page and its subpages to that project's root, last (unless parent_page_id says where)",
  })
  @OptionalNonNull()
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  project_id?: string;

  @ApiPropertyOptional({
    pattern: PARENT_PAGE_ID_SHAPE.pattern.source,
    maxLength: PARENT_PAGE_ID_SHAPE.maxLength,
    description: '"" places the page at the root of its project; a page of another project moves it there',
  })
  @OptionalNonNull()
  @MatchesIdShape(PARENT_PAGE_ID_SHAPE)
  @IsString()
  @CanonicalId()
  parent_page_id?: string;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 0,
    maximum: INPUT_LIMITS.positionMax,
    description: '0-based index among the active siblings; past the end means last',
  })
  @OptionalNonNull()
  @Max(INPUT_LIMITS.positionMax)
  @Min(0)
  @IsInt()
  position?: number;

  @ApiPropertyOptional()
  @OptionalNonNull()
  @IsBoolean()
  is_public?: boolean;

  @ApiPropertyOptional({ type: PublicSettingsInput })
  @OptionalNonNull()
  @ValidateNested()
  @IsObject()
  @Type(() => PublicSettingsInput)
  public_settings?: PublicSettingsInput;

  @ApiPropertyOptional({ description: 'true archives the page and its subpages; false brings them back' })
  @OptionalNonNull()
  @IsBoolean()
  archived?: boolean;

  @ApiPropertyOptional()
  @OptionalNonNull()
  @IsBoolean()
  hide_table_of_contents?: boolean;

  @ApiPropertyOptional()
  @OptionalNonNull()
  @IsBoolean()
  hide_subpages?: boolean;
}
