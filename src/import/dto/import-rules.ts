import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayUnique, IsArray, IsObject, IsString, Matches, ValidateBy, ValidateNested, ValidationOptions } from 'class-validator';
import { TEMPLATE_ID_PATTERN } from '../../notes/dto/note-template-path.dto';
import { TEAM_ID_PATTERN } from '../../workspaces/workspace-access.guard';

const NUMERIC_ID_PATTERN = /^[0-9]{1,19}$/;
const BIGINT_MAX = 9223372036854775807n;

/** Page, card and tag ids: numerical strings that fit the bigint columns. */
export function isNumericId(value: unknown): value is string {
  return typeof value === 'string' && NUMERIC_ID_PATTERN.test(value) && BigInt(value) <= BIGINT_MAX;
}

export const IsNumericId = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isNumericId', validator: { validate: isNumericId, defaultMessage: () => '$property must be a numerical string of at most 9223372036854775807' } },
    options,
  );

export const IsTeamId = () => Matches(TEAM_ID_PATTERN, { message: '$property must be 1 to 64 letters or digits' });

/** Project and note template ids. */
export const IsNameId = () => Matches(TEMPLATE_ID_PATTERN, { message: '$property must be 1 to 64 letters, digits, "_" or "-"' });

/** Lengths as PostgreSQL's char_length counts them: Unicode code points. */
export const CodePoints = (min: number, max: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'codePoints',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && [...value].length >= min && [...value].length <= max,
        defaultMessage: () => `$property must be a string of ${min} to ${max} characters`,
      },
    },
    options,
  );

export const IsUserId = (options?: ValidationOptions) => applyDecorators(IsString(options), CodePoints(1, 64, options));

/** A set of users (favourites, bookmarks, watchers, card members): distinct user ids. */
export const IsUserIdSet = () => applyDecorators(IsArray(), ArrayUnique({ message: '$property lists a user twice' }), IsUserId({ each: true }));

/** A list of objects, each validated as `type`. */
export const ListOf = (type: () => new () => object) =>
  applyDecorators(IsArray(), IsObject({ each: true }), ValidateNested({ each: true }), Type(type));
