import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { PROJECT_ID_SHAPE } from '../../common/id-shapes';

export const TAG_NAME_MAX = 64;
const COLOR = /^[A-Za-z0-9#_-]{1,32}$/;

const NAME_DOC = {
  type: 'string',
  pattern: STORABLE_TEXT_PATTERN,
  minLength: 1,
  maxLength: TAG_NAME_MAX,
  description:
    `1 to ${TAG_NAME_MAX} characters (Unicode code points), unique ignoring case among the workspace-wide tags ` +
    "or among its project's tags (409 TAG_NAME_TAKEN); the slug is made from it",
} as const;

const COLOR_DOC = {
  type: 'string',
  pattern: COLOR.source,
  minLength: 1,
  maxLength: 32,
  description: 'A colour name like `red` or a hex colour like `#ff0000`',
} as const;

export const PROJECT_ID_DOC = {
  type: 'string',
  pattern: PROJECT_ID_SHAPE.pattern.source,
  maxLength: PROJECT_ID_SHAPE.maxLength,
} as const;

/** A tag's name: documented, required or optional, and checked. */
export const TagName = (required: boolean) =>
  applyDecorators(
    required ? ApiProperty(NAME_DOC) : ApiPropertyOptional(NAME_DOC),
    CodePoints(1, TAG_NAME_MAX),
    IsString(),
  );

/** A tag's colour. */
export const TagColor = (required: boolean) =>
  applyDecorators(
    required ? ApiProperty(COLOR_DOC) : ApiPropertyOptional(COLOR_DOC),
    Matches(COLOR, { message: '$property must be 1 to 32 letters, digits, "#", "_" or "-"' }),
    IsString(),
  );
