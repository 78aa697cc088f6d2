import { IsBoolean, IsInt, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import { TokenActor } from '../../common/actor';
import { OptionalNonNull } from '../../common/patch-semantics';
import { CodePoints } from '../../common/code-points';
import { IsTeamId, IsUserId } from './import-rules';

/** The latest instant a JavaScript Date (and so an STime we can return) can hold. */
const STIME_MAX = 8.64e15;

/** The three things a token may act as, by `type/source.type`, with the source fields each needs. */
const ACTOR_SHAPES: Record<string, string[]> = {
  user: [],
  'user/oauth': ['client_id'],
  'robot/agent': ['agent_id', 'on_behalf_of'],
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Exactly these keys, each a non-empty string. */
function hasStrings(value: Record<string, unknown>, keys: string[]): boolean {
  return (
    Object.keys(value).length === keys.length &&
    keys.every((key) => typeof value[key] === 'string' && value[key] !== '')
  );
}

export function isTokenActor(value: unknown): value is TokenActor {
  if (!isPlainObject(value)) return false;
  const { source, ...rest } = value;
  if (source === undefined) return hasStrings(rest, ['type']) && rest.type === 'user';
  if (!isPlainObject(source) || !hasStrings(rest, ['type'])) return false;
  const required = ACTOR_SHAPES[`${String(rest.type)}/${String(source.type)}`];
  return required !== undefined && hasStrings(source, ['type', ...required]);
}

const IsTokenActor = () =>
  ValidateBy({
    name: 'isTokenActor',
    validator: {
      validate: isTokenActor,
      defaultMessage: () =>
        '$property must be {"type":"user"}, {"type":"user","source":{"type":"oauth","client_id":"..."}} or ' +
        '{"type":"robot","source":{"type":"agent","agent_id":"...","on_behalf_of":"<user id>"}}',
    },
  });

export class TokenEntry {
  @IsTeamId()
  team_id: string;

  @IsString()
  @CodePoints(1, 64)
  id: string;

  @IsUserId()
  user_id: string;

  /** The secret; stored only as its SHA-256. May be left out for a token that already exists. */
  @OptionalNonNull()
  @IsString()
  @CodePoints(1, 4096)
  token?: string;

  @IsOptional()
  @IsString()
  name?: string | null;

  /** STime (ms) or null for a token that does not expire. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(STIME_MAX)
  expires_at?: number | null;

  @OptionalNonNull()
  @IsBoolean()
  revoked?: boolean;

  @OptionalNonNull()
  @IsTokenActor()
  actor?: TokenActor;
}
