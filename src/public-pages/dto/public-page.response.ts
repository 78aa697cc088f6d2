import { ApiProperty } from '@nestjs/swagger';
import { ImageDto } from '../../common/dto/image.dto';
import { nullableRef } from '../../common/openapi/nullable-ref';
import { CoverImageDto } from '../../pages/dto/cover-image.dto';
import { PAGE_FONTS } from '../../pages/page-options';

/** What a shared page shows anyone who has its URL, for embedding it. */
export class PublicPageDto {
  @ApiProperty({ pattern: '^[0-9]{1,19}$' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  alias_id: string;

  @ApiProperty({ maxLength: 255 })
  title: string;

  @ApiProperty({ enum: PAGE_FONTS })
  font: string;

  @ApiProperty(nullableRef(ImageDto, 'null when the page has no icon'))
  icon: ImageDto | null;

  @ApiProperty(nullableRef(CoverImageDto, 'null when the page has no cover'))
  cover_image: CoverImageDto | null;

  @ApiProperty({
    description:
      'The page content as HTML, sanitised by an allowlist: no script, event handler, form, frame, style ' +
      'or class attribute; links to http(s) and mailto only, images from http(s) and data:image/* only',
  })
  content: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime: milliseconds since the Unix epoch' })
  time_updated: number;
}

export class PublicPageResponse {
  @ApiProperty({ type: PublicPageDto })
  page: PublicPageDto;
}
