import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/**
 * Query string values arrive as strings (the 'simple' parser; a repeated parameter as an array). These
 * decorators accept exactly the documented spellings and leave anything else for the rule to refuse
 * (`archived=yes`, `limit=ten`, `limit=1&limit=2`: 400), since implicit conversion is off.
 */
export const QueryBoolean = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: Boolean, description }),
    Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsOptional(),
    IsBoolean({ message: '$property must be true or false' }),
  );

/** `limit`: an integer from 1 to `max`, `fallback` when absent. */
export const QueryLimit = (max: number, fallback: number) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: max,
      default: fallback,
      description: 'Items per answer',
    }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value,
    ),
    IsOptional(),
    IsInt({ message: `$property must be an integer from 1 to ${max}` }),
    Min(1, { message: `$property must be an integer from 1 to ${max}` }),
    Max(max, { message: `$property must be an integer from 1 to ${max}` }),
  );

/** Room for a tree walk's path of sort keys and its snapshot (docs/page-list.md), some hundred levels deep. */
export const CURSOR_MAX_LENGTH = 8192;

/** `cursor`: the opaque string a previous answer of the same list returned (common/list-cursor.ts). */
export const QueryCursor = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      pattern: '^[A-Za-z0-9_-]+$',
      maxLength: CURSOR_MAX_LENGTH,
      description: "The previous answer's cursor, to fetch what follows",
    }),
    IsOptional(),
    IsString(),
    MaxLength(CURSOR_MAX_LENGTH),
  );

/** What every list answers besides its items: how many this answer holds, and the cursor to what follows. */
export interface ListPage {
  count: number;
  cursor: string | null;
}
