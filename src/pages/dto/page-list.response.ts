import { ApiProperty, OmitType } from '@nestjs/swagger';
import { PageDto } from './page.response';

/** A Page as GET /pages/{id} shows it, without content and collaboration. */
export class PageSummaryDto extends OmitType(PageDto, ['content', 'collaboration'] as const) {}

export class PageListResponse {
  @ApiProperty({ type: [PageSummaryDto] })
  pages: PageSummaryDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How many pages this answer holds' })
  count: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Opaque; when not null, pass it as `cursor` (with the same filters) to fetch what follows',
  })
  cursor: string | null;
}
