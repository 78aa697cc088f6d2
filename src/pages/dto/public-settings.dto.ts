import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn } from 'class-validator';
import { IsHttpUri } from '../../common/http-uri';
import { OptionalNonNull, OptionalNullable } from '../../common/patch-semantics';
import { ROBOTS_DIRECTIVES, RobotsDirective } from '../page-options';

export class PublicSettingsInput {
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    format: 'uri',
    description: 'Absolute http(s) URL; null goes back to {PUBLIC_PAGES_BASE_URL}/{alias_id}',
  })
  @OptionalNullable()
  @IsHttpUri()
  url?: string | null;

  // Unique, as an import requires: a page's export must import again.
  @ApiPropertyOptional({ type: 'array', uniqueItems: true, items: { type: 'string', enum: [...ROBOTS_DIRECTIVES] } })
  @OptionalNonNull()
  @ArrayUnique({ message: '$property lists a directive twice' })
  @IsIn(ROBOTS_DIRECTIVES, { each: true })
  @IsArray()
  robots?: RobotsDirective[];
}

export class PublicSettingsDto {
  @ApiProperty({ format: 'uri', description: 'The given URL, or {PUBLIC_PAGES_BASE_URL}/{alias_id}' })
  url: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ROBOTS_DIRECTIVES] } })
  robots: RobotsDirective[];
}
