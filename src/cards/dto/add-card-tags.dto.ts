import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsString, Matches } from 'class-validator';
import { MatchesIdShape, NUMERIC_ID_SHAPE } from '../../common/id-shapes';
import { CanonicalId } from '../../common/numeric-id';
import { OptionalNonNull } from '../../common/patch-semantics';

export const MAX_TAGS_PER_REQUEST = 100;

/** `id`, `ids` or both: their union, duplicates collapsed, is what gets attached. */
export class AddCardTagsDto {
  @ApiPropertyOptional({ pattern: NUMERIC_ID_SHAPE.pattern.source, description: 'A single tag id' })
  @OptionalNonNull()
  @MatchesIdShape(NUMERIC_ID_SHAPE)
  @IsString()
  @CanonicalId()
  id?: string;

  @ApiPropertyOptional({
    type: [String],
    items: { type: 'string', pattern: NUMERIC_ID_SHAPE.pattern.source },
    description:
      'Several tag ids (numerical strings). Duplicates collapse; at most ' +
      `${MAX_TAGS_PER_REQUEST} distinct ids, counting id too, are accepted (repeats do not count)`,
  })
  @OptionalNonNull()
  @Matches(NUMERIC_ID_SHAPE.pattern, { each: true, message: `each of ids must be ${NUMERIC_ID_SHAPE.mustBe}` })
  @IsString({ each: true })
  @IsArray()
  @CanonicalId()
  ids?: string[];
}
