import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsString } from 'class-validator';
import { CodePoints } from '../../common/code-points';
import { INPUT_LIMITS } from '../../common/input-limits';
import { IsHttpUri } from '../../common/http-uri';
import { OptionalNonNull, OptionalNullable } from '../../common/patch-semantics';
import { ROBOTS_DIRECTIVES, RobotsDirective } from '../page-options';

export class PublicSettingsInput {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    format: 'uri',
    maxLength: INPUT_LIMITS.urlMax,
    description: 'Absolute http(s) URL; null goes back to {PUBLIC_PAGES_BASE_URL}/{alias_id}',
  })
  @OptionalNullable()
  @IsHttpUri()
  @CodePoints(0, INPUT_LIMITS.urlMax)
  @IsString()
  url?: string | null;

  // Unique, as an import requires: a page's export must import again.
  @ApiPropertyOptional({
    type: 'array',
    uniqueItems: true,
    maxItems: ROBOTS_DIRECTIVES.length,
    items: { type: 'string', enum: [...ROBOTS_DIRECTIVES] },
  })
  @OptionalNonNull()
  @ArrayUnique({ message: '$property lists a directive twice' })
  @IsIn(ROBOTS_DIRECTIVES, { each: true })
  @ArrayMaxSize(ROBOTS_DIRECTIVES.length)
  @IsArray()
  robots?: RobotsDirective[];
}

export class PublicSettingsDto {
  @ApiProperty({ format: 'uri', description: 'The given URL, or {PUBLIC_PAGES_BASE_URL}/{alias_id}' })
  url: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ROBOTS_DIRECTIVES] } })
  robots: RobotsDirective[];
}
