import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsObject,
  IsString,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { MatchesIdShape, PROJECT_ID_SHAPE, TEAM_ID_SHAPE, TEMPLATE_ID_SHAPE } from '../../common/id-shapes';
import { CanonicalId, isNumericId } from '../../common/numeric-id';

/** A page, card or tag id, spelled canonically ("0002" is "2"), so the import's references match by string. */
export const IsNumericId = (options?: ValidationOptions) =>
  applyDecorators(
    CanonicalId(),
    ValidateBy(
      {
        name: 'isNumericId',
        validator: {
          validate: isNumericId,
          defaultMessage: () => '$property must be a numerical string of at most 9223372036854775807',
        },
      },
      options,
    ),
  );

export const IsTeamId = () => MatchesIdShape(TEAM_ID_SHAPE);
export const IsProjectId = () => MatchesIdShape(PROJECT_ID_SHAPE);
export const IsTemplateId = () => MatchesIdShape(TEMPLATE_ID_SHAPE);

export const IsUserId = (options?: ValidationOptions) => applyDecorators(IsString(options), CodePoints(1, 64, options));

/** A set of users (favourites, bookmarks, watchers, card members): distinct user ids. */
export const IsUserIdSet = () =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(INPUT_LIMITS.listItemsMax),
    ArrayUnique({ message: '$property lists a user twice' }),
    IsUserId({ each: true }),
  );

/** A list of objects, each validated as `type`. */
export const ListOf = (type: () => new () => object) =>
  applyDecorators(IsArray(), IsObject({ each: true }), ValidateNested({ each: true }), Type(type));

/** A list inside one entry, no longer than any list an API body takes. */
export const EntryListOf = (type: () => new () => object) =>
  applyDecorators(ListOf(type), ArrayMaxSize(INPUT_LIMITS.listItemsMax));
