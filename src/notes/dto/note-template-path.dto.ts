import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { TeamPath } from '../../workspaces/team-path.dto';

export const TEMPLATE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export class NoteTemplatePath extends TeamPath {
  @ApiProperty({ pattern: TEMPLATE_ID_PATTERN.source })
  @Matches(TEMPLATE_ID_PATTERN, { message: 'template_id must be 1 to 64 letters, digits, "_" or "-"' })
  template_id: string;
}
