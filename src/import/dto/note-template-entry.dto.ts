import { Type } from 'class-transformer';
import { ArrayMaxSize, IsBoolean, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { ImageDto } from '../../common/dto/image.dto';
import { OptionalNonNull } from '../../common/patch-semantics';
import { NoteTemplateSectionInput } from '../../notes/dto/note-template-section.dto';
import { CONTEXT_MAX_LENGTH, SECTIONS_MAX } from '../../notes/dto/update-note-template.dto';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { IsTeamId, IsTemplateId, IsUserId, IsUserIdSet, ListOf } from './import-rules';

export class NoteTemplateEntry {
  @IsTeamId()
  team_id: string;

  @IsTemplateId()
  id: string;

  /** null or absent: a built-in template. */
  @IsOptional()
  @IsUserId()
  owner_id?: string | null;

  @CodePoints(1, INPUT_LIMITS.titleMax)
  title: string;

  @OptionalNonNull()
  @IsString()
  @CodePoints(0, CONTEXT_MAX_LENGTH)
  context?: string;

  @OptionalNonNull()
  @ListOf(() => NoteTemplateSectionInput)
  @ArrayMaxSize(SECTIONS_MAX)
  sections?: NoteTemplateSectionInput[];

  @OptionalNonNull()
  @IsBoolean()
  ai_actions?: boolean;

  @OptionalNonNull()
  @IsBoolean()
  is_shared?: boolean;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ImageDto)
  icon?: ImageDto | null;

  @OptionalNonNull()
  @IsUserIdSet()
  favourited_by?: string[];
}
