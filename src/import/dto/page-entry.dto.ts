import { PAGE_CONTENT_LIMITS } from '../../pages/dto/create-page.dto';
import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayUnique,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { ImageDto } from '../../common/dto/image.dto';
import { OptionalNonNull } from '../../common/patch-semantics';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { CanonicalId, isNumericId } from '../../common/numeric-id';
import { CoverImageDto } from '../../pages/dto/cover-image.dto';
import { PublicSettingsInput } from '../../pages/dto/public-settings.dto';
import { PAGE_FONTS, PageFont } from '../../pages/page-options';
import { EntryListOf, IsUserId, IsUserIdSet } from './import-rules';
import { ProjectItemEntry } from './project-item-entry.dto';

const IsParentPageId = () =>
  applyDecorators(
    CanonicalId(),
    ValidateBy({
      name: 'isParentPageId',
      validator: {
        validate: (value: unknown) => value === '' || isNumericId(value),
        defaultMessage: () => '$property must be "" (the project root) or a page id',
      },
    }),
  );

/** As the API takes it, bounds and all. */
export class CoverImageEntry extends CoverImageDto {}

/** As the API takes it; a null url: the page's default public URL. */
export class PublicSettingsEntry extends PublicSettingsInput {}

export class PageMemberEntry {
  @IsUserId()
  user_id: string;

  @OptionalNonNull()
  @IsString()
  @CodePoints(1, 32)
  role?: string;
}

export class PageCommentEntry {
  @IsString()
  @CodePoints(1, 64)
  id: string;

  @IsUserId()
  user_id: string;

  @OptionalNonNull()
  @IsString()
  text?: string;
}

/** A page, placed in the order listed under its parent. Absent fields take their defaults. */
export class PageEntry extends ProjectItemEntry {
  /** "" or absent: the project's root. */
  @OptionalNonNull()
  @IsParentPageId()
  parent_page_id?: string;

  @OptionalNonNull()
  @IsString()
  @CodePoints(0, INPUT_LIMITS.titleMax)
  title?: string;

  @OptionalNonNull()
  @IsBoolean()
  archived?: boolean;

  /** Absent keeps the stored one, or makes a new one. */
  @OptionalNonNull()
  @IsUUID()
  alias_id?: string;

  @OptionalNonNull()
  @IsIn(PAGE_FONTS)
  font?: PageFont;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ImageDto)
  icon?: ImageDto | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CoverImageEntry)
  cover_image?: CoverImageEntry | null;

  @OptionalNonNull()
  @CodePoints(0, PAGE_CONTENT_LIMITS.contentMax)
  @IsString()
  content?: string;

  @OptionalNonNull()
  @IsBoolean()
  is_public?: boolean;

  @OptionalNonNull()
  @IsObject()
  @ValidateNested()
  @Type(() => PublicSettingsEntry)
  public_settings?: PublicSettingsEntry;

  @OptionalNonNull()
  @IsBoolean()
  hide_table_of_contents?: boolean;

  @OptionalNonNull()
  @IsBoolean()
  hide_subpages?: boolean;

  @OptionalNonNull()
  @EntryListOf(() => PageMemberEntry)
  @ArrayUnique((member: PageMemberEntry) => member?.user_id, { message: '$property lists a user twice' })
  members?: PageMemberEntry[];

  @OptionalNonNull()
  @IsUserIdSet()
  bookmarked_by?: string[];

  @OptionalNonNull()
  @IsUserIdSet()
  watched_by?: string[];

  @OptionalNonNull()
  @EntryListOf(() => PageCommentEntry)
  comments?: PageCommentEntry[];
}
