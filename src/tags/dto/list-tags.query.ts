import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MatchesIdShape, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { QueryBoolean, QueryCursor, QueryLimit } from '../../common/list-query';
import { PROJECT_ID_DOC } from './tag-fields';

export const TAGS_PER_ANSWER = { max: 500, fallback: 100 };

export class ListTagsQuery {
  @ApiPropertyOptional({
    ...PROJECT_ID_DOC,
    description: "The tags usable on that project's cards: its own and the workspace-wide ones (404 if unknown)",
  })
  @IsOptional()
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  project_id?: string;

  @QueryBoolean('true: every tag of the workspace, whatever project_id says')
  all?: boolean;

  @QueryLimit(TAGS_PER_ANSWER.max, TAGS_PER_ANSWER.fallback)
  limit?: number;

  @QueryCursor()
  cursor?: string;
}
