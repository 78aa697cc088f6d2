import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsString, Matches } from 'class-validator';
import { CanonicalId, NUMERIC_ID_PATTERN } from '../../common/numeric-id';
import { OptionalNonNull } from '../../common/patch-semantics';

export const MAX_TAGS_PER_REQUEST = 100;

/** `id`, `ids` or both: their union, duplicates collapsed, is what gets attached. */
export class AddCardTagsDto {
  @ApiPropertyOptional({ pattern: NUMERIC_ID_PATTERN.source, description: 'A single tag id' })
  @OptionalNonNull()
  @Matches(NUMERIC_ID_PATTERN, { message: 'id must be a numerical string of 1 to 19 digits' })
  @IsString()
  @CanonicalId()
  id?: string;

  @ApiPropertyOptional({
    type: [String],
    items: { type: 'string', pattern: NUMERIC_ID_PATTERN.source },
    description:
      'Several tag ids (numerical strings). Duplicates collapse; at most ' +
      `${MAX_TAGS_PER_REQUEST} distinct ids, counting id too, are accepted (repeats do not count)`,
  })
  @OptionalNonNull()
  @Matches(NUMERIC_ID_PATTERN, { each: true, message: 'each of ids must be a numerical string of 1 to 19 digits' })
  @IsString({ each: true })
  @IsArray()
  @CanonicalId()
  ids?: string[];
}
