import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString } from 'class-validator';
import { STORABLE_TEXT_PATTERN } from '../../common/body-inspection';
import { CodePoints } from '../../common/code-points';
import { IsHttpUri } from '../../common/http-uri';
import { INPUT_LIMITS } from '../../common/input-limits';
import { OptionalNonNull } from '../../common/patch-semantics';
import { ALL_EVENTS, EVENT_TYPES } from '../webhook-events';

export const DESCRIPTION_MAX = 1000;
/** Every type once, and `*`. */
export const EVENTS_MAX = EVENT_TYPES.length + 1;

export class CreateWebhookDto {
  @ApiProperty({
    type: 'string',
    format: 'uri',
    maxLength: INPUT_LIMITS.urlMax,
    description:
      'Absolute http(s) URL the events are POSTed to. It must resolve to public addresses only (not loopback, ' +
      'private, link-local or unspecified), unless the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true',
    example: 'https://hooks.example.com/workspace-content',
  })
  @IsHttpUri()
  @CodePoints(1, INPUT_LIMITS.urlMax)
  @IsString()
  url: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...EVENT_TYPES, ALL_EVENTS] },
    minItems: 1,
    maxItems: EVENTS_MAX,
    description: 'The event types to receive, or ["*"] for all of them',
  })
  @IsString({ each: true })
  @ArrayMaxSize(EVENTS_MAX)
  @ArrayMinSize(1)
  @IsArray()
  events: string[];

  @ApiPropertyOptional({
    maxLength: DESCRIPTION_MAX,
    pattern: STORABLE_TEXT_PATTERN,
    description: 'A note for the people managing the webhook; "" when absent',
  })
  @OptionalNonNull()
  @CodePoints(0, DESCRIPTION_MAX)
  @IsString()
  description?: string;
}
