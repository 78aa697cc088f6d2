import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { MatchesIdShape, PARENT_PAGE_ID_SHAPE, PROJECT_ID_SHAPE } from '../../common/id-shapes';
import { QueryBoolean, QueryCursor, QueryLimit } from '../../common/list-query';
import { CanonicalId } from '../../common/numeric-id';

export const PAGE_LIST_MAX = 100;
export const PAGE_LIST_DEFAULT = 50;

/** The query of GET /pages (decisions.md, The content lifecycle): strict, like a body. */
export class ListPagesQuery {
  @ApiPropertyOptional({
    pattern: PROJECT_ID_SHAPE.pattern.source,
    maxLength: PROJECT_ID_SHAPE.maxLength,
    description: 'Only the pages of this project (404 if it names no project)',
  })
  @IsOptional()
  @MatchesIdShape(PROJECT_ID_SHAPE)
  @IsString()
  project_id?: string;

  @ApiPropertyOptional({
    pattern: PARENT_PAGE_ID_SHAPE.pattern.source,
    maxLength: PARENT_PAGE_ID_SHAPE.maxLength,
    description:
      'Only that page\'s children (404 if it names no page); "": the project\'s root pages, which needs project_id',
  })
  @IsOptional()
  @MatchesIdShape(PARENT_PAGE_ID_SHAPE)
  @IsString()
  @CanonicalId()
  parent_page_id?: string;

  @QueryBoolean('true: archived pages only, newest archive first; false (default): active pages, in tree order')
  archived?: boolean;

  @QueryBoolean('true: only pages changed in the last 7 days, newest change first')
  updated_recently?: boolean;

  @QueryLimit(PAGE_LIST_MAX, PAGE_LIST_DEFAULT)
  limit?: number;

  @QueryCursor()
  cursor?: string;
}
