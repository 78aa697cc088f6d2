import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MatchesIdShape, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { PROJECT_ID_DOC, TagColor, TagName } from './tag-fields';

export class CreateTagDto {
  @TagName(true)
  name: string;

  @TagColor(true)
  color: string;

  @ApiPropertyOptional({
    ...PROJECT_ID_DOC,
    nullable: true,
    description: "Absent or null: a workspace-wide tag; else a tag of that project's cards (404 if unknown)",
  })
  @IsOptional()
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  project_id?: string | null;
}
