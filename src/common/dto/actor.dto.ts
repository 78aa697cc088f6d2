import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Actor, ActorSource } from '../actor';

export class ActorSourceDto implements ActorSource {
  @ApiProperty({ enum: ['oauth', 'import', 'email', 'agent'] })
  type: ActorSource['type'];

  @ApiPropertyOptional({ description: 'Present when the change came through an OAuth 2.0 app' })
  client_id?: string;

  @ApiPropertyOptional({ description: 'Present when the resource was created by an import' })
  import_id?: string;

  @ApiPropertyOptional({ description: 'Present when the change was made by an agent' })
  agent_id?: string;

  @ApiPropertyOptional({ description: 'Present when created via an email' })
  email_addr?: string;

  @ApiPropertyOptional()
  email_verified?: boolean;

  @ApiPropertyOptional({ description: 'User id of the human responsible for an agent action' })
  on_behalf_of?: string;
}

export class ActorDto implements Actor {
  @ApiPropertyOptional({ description: 'Omitted when empty (a built-in resource)' })
  user_id?: string;

  @ApiProperty({ enum: ['user', 'robot', 'system'], default: 'user' })
  type: Actor['type'];

  @ApiPropertyOptional({
    type: ActorSourceDto,
    description: 'Present when the change came through an OAuth app or an agent',
  })
  source?: ActorSourceDto;
}
