import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { HealthCheck, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator';
import { ApiErrors } from '../common/openapi/api-errors.decorator';
import { MigrationsHealthIndicator } from './migrations.health';

const HEALTH_OK = {
  schema: {
    type: 'object',
    properties: { status: { type: 'string', enum: ['ok'] } },
    required: ['status'],
    additionalProperties: false,
  },
};

/** Public: the OpenAPI document gives these operations `security: []` (see common/openapi/openapi.ts). */
@ApiTags('Health')
@Public()
@SkipThrottle() // orchestrators poll these
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly migrations: MigrationsHealthIndicator,
  ) {}

  @Get('live')
  @ApiOperation({
    operationId: 'live',
    summary: 'The process is up (no dependency is checked)',
    description: 'For a liveness probe: answers 200 as long as the process serves HTTP, whatever the database does.',
  })
  @ApiOkResponse(HEALTH_OK)
  @ApiErrors()
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({
    operationId: 'ready',
    summary: 'The database answers and every migration is applied',
    description:
      'For a readiness probe: 503 NOT_READY, naming what fails, ' +
      'while the database is unreachable or a migration is pending.',
  })
  @ApiOkResponse(HEALTH_OK)
  @ApiErrors('NOT_READY')
  async ready() {
    await this.health.check([
      () => this.database.pingCheck('database', { timeout: 2000 }),
      () => this.migrations.check('migrations'),
    ]);
    return { status: 'ok' };
  }
}
