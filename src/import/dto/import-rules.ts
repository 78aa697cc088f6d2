import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayUnique, IsArray, IsObject, IsString, Matches, ValidateBy, ValidateNested, ValidationOptions } from 'class-validator';
import { CodePoints } from '../../common/code-points';
import { CanonicalId, isNumericId } from '../../common/numeric-id';
import { TEMPLATE_ID_PATTERN } from '../../notes/template-id.param';
import { TEAM_ID_PATTERN } from '../../workspaces/workspace-access.guard';

/** A page, card or tag id, spelled canonically ("0002" is "2"), so the import's references match by string. */
export const IsNumericId = (options?: ValidationOptions) =>
  applyDecorators(
    CanonicalId(),
    ValidateBy(
      { name: 'isNumericId', validator: { validate: isNumericId, defaultMessage: () => '$property must be a numerical string of at most 9223372036854775807' } },
      options,
    ),
  );

export const IsTeamId = () => Matches(TEAM_ID_PATTERN, { message: '$property must be 1 to 64 letters or digits' });

/** Project and note template ids. */
export const IsNameId = () => Matches(TEMPLATE_ID_PATTERN, { message: '$property must be 1 to 64 letters, digits, "_" or "-"' });

export const IsUserId = (options?: ValidationOptions) => applyDecorators(IsString(options), CodePoints(1, 64, options));

/** A set of users (favourites, bookmarks, watchers, card members): distinct user ids. */
export const IsUserIdSet = () => applyDecorators(IsArray(), ArrayUnique({ message: '$property lists a user twice' }), IsUserId({ each: true }));

/** A list of objects, each validated as `type`. */
export const ListOf = (type: () => new () => object) =>
  applyDecorators(IsArray(), IsObject({ each: true }), ValidateNested({ each: true }), Type(type));
