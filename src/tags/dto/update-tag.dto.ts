import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MatchesIdShape, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { OptionalNonNull } from '../../common/patch-semantics';
import { PROJECT_ID_DOC, TagColor, TagName } from './tag-fields';

/** Absent keeps a field; null is a 400 for name and color. */
export class UpdateTagDto {
  @OptionalNonNull()
  @TagName(false)
  name?: string;

  @OptionalNonNull()
  @TagColor(false)
  color?: string;

  @ApiPropertyOptional({
    ...PROJECT_ID_DOC,
    nullable: true,
    description: "Cannot change: accepted only when it is the tag's own (null for a workspace-wide tag), else 400",
  })
  @IsOptional()
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  project_id?: string | null;
}
