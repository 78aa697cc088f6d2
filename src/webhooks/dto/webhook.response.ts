import { ApiProperty } from '@nestjs/swagger';
import { ActorDto } from '../../common/dto/actor.dto';
import { ALL_EVENTS, EVENT_TYPES } from '../webhook-events';

export class WebhookDto {
  @ApiProperty({ description: 'Numerical string' })
  id: string;

  @ApiProperty({ format: 'uri' })
  url: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...EVENT_TYPES, ALL_EVENTS] } })
  events: string[];

  @ApiProperty({ description: '"" when none was given' })
  description: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime (ms)' })
  time_created: number;

  @ApiProperty({ type: ActorDto, description: 'Who created it' })
  user: ActorDto;
}

export class CreatedWebhookDto extends WebhookDto {
  @ApiProperty({
    description:
      'The signing secret, `whsec_` + base64 of 32 random bytes. Shown only in this answer: keep it, ' +
      'and verify each delivery with it (Standard Webhooks)',
    pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  })
  secret: string;
}

export class WebhookResponse {
  @ApiProperty({ type: WebhookDto })
  webhook: WebhookDto;
}

export class CreatedWebhookResponse {
  @ApiProperty({ type: CreatedWebhookDto })
  webhook: CreatedWebhookDto;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookDto] })
  webhooks: WebhookDto[];
}

export class DeliveryAttemptDto {
  @ApiProperty({ description: "The event's id, sent as webhook-id on every attempt" })
  id: string;

  @ApiProperty({ enum: EVENT_TYPES })
  type: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: '1 for the first attempt of this event, then 2, ...' })
  attempt: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "The receiver's HTTP status; null when it could not be reached or did not answer in 10 s",
  })
  status: number | null;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime (ms) of the attempt' })
  time: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    description: 'STime (ms) of the next attempt; null when delivered or given up',
  })
  next_attempt: number | null;

  @ApiProperty({
    enum: ['delivered', 'retrying', 'given_up'],
    description: 'What followed: delivered, retried at next_attempt, or given up (24 hours after the event)',
  })
  outcome: string;
}

export class DeliveriesResponse {
  @ApiProperty({ type: [DeliveryAttemptDto], description: 'Newest first, at most 100' })
  deliveries: DeliveryAttemptDto[];
}
