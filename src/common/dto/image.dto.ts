import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { OptionalNonNull } from '../patch-semantics';
import { Image, IMAGE_TYPES } from '../image';

/** The contract's Image, as accepted in request bodies and returned in responses. */
export class ImageDto implements Image {
  @ApiProperty({ enum: IMAGE_TYPES })
  @IsIn(IMAGE_TYPES)
  type: Image['type'];

  @ApiProperty({ description: 'A URL, base64 image data, emoji unicode or an icon name, depending on type' })
  @IsString()
  src: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNonNull()
  @MaxLength(255)
  @IsString()
  id?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNonNull()
  @MaxLength(255)
  @IsString()
  blurhash?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNonNull()
  @MaxLength(255)
  @IsString()
  color?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @OptionalNonNull()
  @MaxLength(255)
  @IsString()
  emoji?: string;
}
