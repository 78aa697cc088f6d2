import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { ImageDto } from '../../common/dto/image.dto';
import { INPUT_LIMITS } from '../../common/input-limits';
import { OptionalNonNull } from '../../common/patch-semantics';

export const OBJECT_FITS = ['fill', 'contain', 'cover', 'none', 'scale-down'] as const;

/** A page's cover: an Image with a vertical offset and how it fits its box (CSS object-fit). */
export class CoverImageDto extends ImageDto {
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: INPUT_LIMITS.positionYMin,
    maximum: INPUT_LIMITS.positionYMax,
    description: 'Vertical offset of the cover, in pixels or percent as the client keeps it',
  })
  @OptionalNonNull()
  @Max(INPUT_LIMITS.positionYMax)
  @Min(INPUT_LIMITS.positionYMin)
  @IsInt()
  positionY?: number;

  @ApiPropertyOptional({ enum: OBJECT_FITS })
  @OptionalNonNull()
  @IsIn(OBJECT_FITS)
  object_fit?: (typeof OBJECT_FITS)[number];
}
