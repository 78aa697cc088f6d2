import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OptionalNonNull } from '../../common/patch-semantics';
import { UpdatePageDto } from './update-page.dto';

/** The most pages one recursive copy creates. */
export const COPY_PAGES_MAX = 1000;

const RECURSIVE = `true: with its active subpages, in order, at most ${COPY_PAGES_MAX} pages in all; default false`;

/** Where the copy goes and what it takes; every field optional, with the update's rules. */
export class CopyPageDto extends PickType(UpdatePageDto, [
  'project_id',
  'title',
  'parent_page_id',
  'position',
] as const) {
  @ApiPropertyOptional({ description: RECURSIVE })
  @OptionalNonNull()
  @IsBoolean()
  recursive?: boolean;
}
