import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import { OptionalNonNull } from '../patch-semantics';
import { Image, IMAGE_TYPES } from '../image';

/** The contract's Image, as accepted in request bodies and returned in responses. */
export class ImageDto implements Image {
  @ApiProperty({ enum: IMAGE_TYPES })
  @IsIn(IMAGE_TYPES)
  type: Image['type'];

  @ApiProperty({ description: 'A URL, base64 image data, emoji unicode or an icon name, depending on type', maxLength: 1048576 })
  @IsString()
  src: string;

  @ApiPropertyOptional() @OptionalNonNull() @IsString() @MaxLength(255)
  id?: string;

  @ApiPropertyOptional() @OptionalNonNull() @IsString() @MaxLength(255)
  blurhash?: string;

  @ApiPropertyOptional() @OptionalNonNull() @IsString() @MaxLength(255)
  color?: string;

  @ApiPropertyOptional() @OptionalNonNull() @IsString() @MaxLength(255)
  emoji?: string;
}
