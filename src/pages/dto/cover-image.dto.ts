import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt } from 'class-validator';
import { ImageDto } from '../../common/dto/image.dto';
import { OptionalNonNull } from '../../common/patch-semantics';

export const OBJECT_FITS = ['fill', 'contain', 'cover', 'none', 'scale-down'] as const;

/** A page's cover: an Image with a vertical offset and how it fits its box (CSS object-fit). */
export class CoverImageDto extends ImageDto {
  @ApiPropertyOptional({ type: 'integer' })
  @OptionalNonNull()
  @IsInt()
  positionY?: number;

  @ApiPropertyOptional({ enum: OBJECT_FITS })
  @OptionalNonNull()
  @IsIn(OBJECT_FITS)
  object_fit?: (typeof OBJECT_FITS)[number];
}
