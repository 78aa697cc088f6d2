import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../body-inspection';
import { CodePoints } from '../code-points';
import { INPUT_LIMITS } from '../input-limits';
import { OptionalNonNull } from '../patch-semantics';
import { Image, IMAGE_TYPES } from '../image';

const LABEL = { maxLength: INPUT_LIMITS.labelMax, pattern: STORABLE_TEXT_PATTERN } as const;

/** The contract's Image, as accepted in request bodies and returned in responses. */
export class ImageDto implements Image {
  @ApiProperty({ enum: IMAGE_TYPES })
  @IsIn(IMAGE_TYPES)
  type: Image['type'];

  @ApiProperty({
    maxLength: INPUT_LIMITS.imageSrcMax,
    pattern: STORABLE_TEXT_PATTERN,
    description:
      'A URL, base64 image data, emoji unicode or an icon name, depending on type. ' +
      `At most ${INPUT_LIMITS.imageSrcMax} characters, so that a data URL of a small icon fits`,
  })
  @CodePoints(0, INPUT_LIMITS.imageSrcMax)
  @IsString()
  src: string;

  @ApiPropertyOptional(LABEL)
  @OptionalNonNull()
  @CodePoints(0, INPUT_LIMITS.labelMax)
  @IsString()
  id?: string;

  @ApiPropertyOptional(LABEL)
  @OptionalNonNull()
  @CodePoints(0, INPUT_LIMITS.labelMax)
  @IsString()
  blurhash?: string;

  @ApiPropertyOptional(LABEL)
  @OptionalNonNull()
  @CodePoints(0, INPUT_LIMITS.labelMax)
  @IsString()
  color?: string;

  @ApiPropertyOptional(LABEL)
  @OptionalNonNull()
  @CodePoints(0, INPUT_LIMITS.labelMax)
  @IsString()
  emoji?: string;
}
