import { ApiProperty } from '@nestjs/swagger';
import { ListPage } from '../../common/list-query';
import { NoteTemplateDto } from './note-template.response';

export class NoteTemplateListResponse implements ListPage {
  @ApiProperty({ type: [NoteTemplateDto], description: 'Built-in first, then by title ignoring case, then id' })
  note_templates: NoteTemplateDto[];

  @ApiProperty({ type: 'integer', description: 'How many templates this answer holds' })
  count: number;

  @ApiProperty({ type: 'string', nullable: true, description: 'Fetches what follows; null after the last answer' })
  cursor: string | null;
}
