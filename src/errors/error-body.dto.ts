import { ApiProperty } from '@nestjs/swagger';

export class ErrorDetailDto {
  @ApiProperty({
    description: 'Identifier of this occurrence; the server log line for the request carries it',
    format: 'uuid',
  })
  id: string;

  @ApiProperty({ type: 'integer', format: 'int32', description: 'The HTTP status code' })
  code: number;

  @ApiProperty({
    pattern: '^SEC:\\d{3}-\\d{5}$',
    example: 'SEC:000-00014',
    description: 'Structured code from the error catalogue',
  })
  sec: string;

  @ApiProperty({ example: 'You do not have access to this resource' })
  message: string;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'STime: milliseconds since the Unix epoch' })
  date: number;
}

export class ErrorBodyDto {
  @ApiProperty({ type: ErrorDetailDto })
  error: ErrorDetailDto;
}
