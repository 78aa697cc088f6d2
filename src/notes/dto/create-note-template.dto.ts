import { ApiProperty, OmitType } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { UpdateNoteTemplateDto } from './update-note-template.dto';

/** A new template: the update's fields and rules, with `title` required rather than optional. */
export class CreateNoteTemplateDto extends OmitType(UpdateNoteTemplateDto, ['title']) {
  @ApiProperty({ minLength: 1, maxLength: INPUT_LIMITS.titleMax, pattern: STORABLE_TEXT_PATTERN })
  @CodePoints(1, INPUT_LIMITS.titleMax)
  @IsString()
  title: string;
}
