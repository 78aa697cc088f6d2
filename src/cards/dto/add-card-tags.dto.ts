import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, Matches, ValidationArguments } from 'class-validator';
import { tooManyItems } from '../../common/body-inspection';
import { INPUT_LIMITS } from '../../common/input-limits';
import { MatchesIdShape, NUMERIC_ID_SHAPE } from '../../common/id-shapes';
import { CanonicalId } from '../../common/numeric-id';
import { OptionalNonNull } from '../../common/patch-semantics';

export const MAX_TAGS_PER_REQUEST = 100;

const TAG_ID = {
  type: 'string',
  pattern: NUMERIC_ID_SHAPE.pattern.source,
  maxLength: NUMERIC_ID_SHAPE.maxLength,
} as const;

/** `id`, `ids` or both: their union, duplicates collapsed, is what gets attached. */
export class AddCardTagsDto {
  @ApiPropertyOptional({ ...TAG_ID, description: 'A single tag id' })
  @OptionalNonNull()
  @MatchesIdShape(NUMERIC_ID_SHAPE)
  @IsString()
  @CanonicalId()
  id?: string;

  // The raw count comes right after the type; a list past listItemsMax never gets here (body-inspection.ts).
  @ApiPropertyOptional({
    type: 'array',
    items: TAG_ID,
    maxItems: INPUT_LIMITS.tagIdsRawMax,
    description:
      `Several tag ids (numerical strings), ` +
      `at most ${INPUT_LIMITS.tagIdsRawMax} entries as sent. Duplicates collapse; ` +
      `at most ${MAX_TAGS_PER_REQUEST} distinct ids, counting id too, are accepted (repeats do not count)`,
  })
  @OptionalNonNull()
  @Matches(NUMERIC_ID_SHAPE.pattern, { each: true, message: `each of ids must be ${NUMERIC_ID_SHAPE.mustBe}` })
  @IsString({ each: true })
  @ArrayMaxSize(INPUT_LIMITS.tagIdsRawMax, {
    message: ({ property, value }: ValidationArguments) =>
      tooManyItems(property, (value as unknown[]).length, INPUT_LIMITS.tagIdsRawMax),
  })
  @IsArray()
  @CanonicalId()
  ids?: string[];
}
