import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsObject, IsString, Min, ValidateNested } from 'class-validator';
import { CodePoints } from '../../common/code-points';
import { MatchesIdShape, PARENT_PAGE_ID_SHAPE, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { CanonicalId } from '../../common/numeric-id';
import { ImageDto } from '../../common/dto/image.dto';
import { OptionalNonNull, OptionalNullable } from '../../common/patch-semantics';
import { PAGE_FONTS, PageFont } from '../page-options';
import { CoverImageDto } from './cover-image.dto';
import { PublicSettingsInput } from './public-settings.dto';

/**
 * Only the fields sent change. class-validator checks a property's rules bottom-up, so the type
 * check sits nearest the property.
 */
export class UpdatePageDto {
  @ApiPropertyOptional({ maxLength: 255, description: 'Not nullable' })
  @OptionalNonNull()
  @CodePoints(0, 255)
  @IsString()
  title?: string;

  @ApiPropertyOptional({ enum: PAGE_FONTS })
  @OptionalNonNull()
  @IsIn(PAGE_FONTS)
  font?: PageFont;

  @ApiPropertyOptional({ type: ImageDto, nullable: true, description: 'null clears it' })
  @OptionalNullable()
  @ValidateNested()
  @IsObject()
  @Type(() => ImageDto)
  icon?: ImageDto | null;

  @ApiPropertyOptional({ type: CoverImageDto, nullable: true, description: 'null clears it' })
  @OptionalNullable()
  @ValidateNested()
  @IsObject()
  @Type(() => CoverImageDto)
  cover_image?: CoverImageDto | null;

  @ApiPropertyOptional({
    pattern: PROJECT_ID_SHAPE.pattern.source,
    description: "Moves the page and its subpages to that project's root, last (unless parent_page_id says where)",
  })
  @OptionalNonNull()
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  project_id?: string;

  @ApiPropertyOptional({
    pattern: PARENT_PAGE_ID_SHAPE.pattern.source,
    description: '"" places the page at the root of its project; a page of another project moves it there',
  })
  @OptionalNonNull()
  @MatchesIdShape(PARENT_PAGE_ID_SHAPE)
  @IsString()
  @CanonicalId()
  parent_page_id?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: '0-based index among the active siblings; past the end means last',
  })
  @OptionalNonNull()
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
