import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { CurrentCaller } from '../auth/current-caller.decorator';
import { ApiErrors, BODY_ERRORS, IDEMPOTENCY_ERRORS, RESOURCE_ERRORS } from '../common/openapi/api-errors.decorator';
import { ApiIdempotent } from '../common/openapi/api-versions.decorator';
import { Conditions, WriteConditions } from '../safe-writes/write-conditions';
import { ManagersOnly } from '../workspaces/role-permissions';
import { TeamIdParam } from '../workspaces/team-id.param';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import {
  CreatedWebhookResponse,
  DeliveriesResponse,
  WebhookListResponse,
  WebhookResponse,
} from './dto/webhook.response';
import { WebhookIdParam } from './webhook-id.param';
import { WebhooksService } from './webhooks.service';

const MANAGERS = 'Owners and admins only; any other role gets 403.';

@ApiTags('Webhooks')
@ManagersOnly()
@Controller('v1/:team_id/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Subscribe a URL to change events of the workspace',
    description:
      `${MANAGERS} Every change made through the API that matches \`events\` is then POSTed to \`url\`, ` +
      'signed as Standard Webhooks says, at least once and in order per resource. ' +
      'The answer is the only one that carries the signing `secret`.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookResponse })
  @ApiIdempotent()
  @ApiErrors(
    ...IDEMPOTENCY_ERRORS,
    ...BODY_ERRORS,
    ...RESOURCE_ERRORS,
    'WEBHOOK_EVENT_UNKNOWN',
    'WEBHOOK_URL_REFUSED',
    'WEBHOOK_URL_UNRESOLVABLE',
    'WEBHOOK_LIMIT_REACHED',
  )
  async create(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @Body() body: CreateWebhookDto,
    @Conditions() conditions: WriteConditions,
  ): Promise<CreatedWebhookResponse> {
    return { webhook: await this.webhooks.create(caller, teamId, body, conditions) };
  }

  @Get()
  @ApiOperation({ operationId: 'listWebhooks', summary: "The workspace's webhooks", description: MANAGERS })
  @ApiOkResponse({ type: WebhookListResponse })
  @ApiErrors(...RESOURCE_ERRORS)
  async list(@TeamIdParam() teamId: string): Promise<WebhookListResponse> {
    return { webhooks: await this.webhooks.list(teamId) };
  }

  @Get(':webhook_id')
  @ApiOperation({ operationId: 'getWebhook', summary: 'One webhook (without its secret)', description: MANAGERS })
  @ApiOkResponse({ type: WebhookResponse })
  @ApiErrors(...RESOURCE_ERRORS, 'WEBHOOK_NOT_FOUND')
  async get(@TeamIdParam() teamId: string, @WebhookIdParam() webhookId: string): Promise<WebhookResponse> {
    return { webhook: await this.webhooks.get(teamId, webhookId) };
  }

  @Delete(':webhook_id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook: it receives nothing more',
    description: `${MANAGERS} An attempt already under way may still arrive.`,
  })
  @ApiNoContentResponse({ description: 'The webhook is deleted' })
  @ApiIdempotent()
  @ApiErrors(...RESOURCE_ERRORS, 'WEBHOOK_NOT_FOUND', ...IDEMPOTENCY_ERRORS)
  async delete(
    @CurrentCaller() caller: Caller,
    @TeamIdParam() teamId: string,
    @WebhookIdParam() webhookId: string,
    @Conditions() conditions: WriteConditions,
  ): Promise<void> {
    await this.webhooks.delete(caller, teamId, webhookId, conditions);
  }

  @Get(':webhook_id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's delivery attempts, newest first",
    description:
      `${MANAGERS} One entry per attempt (the last 100): the event, the receiver's status (null: not reached), ` +
      'and when the next attempt is due; an event given up has outcome `given_up`.',
  })
  @ApiOkResponse({ type: DeliveriesResponse })
  @ApiErrors(...RESOURCE_ERRORS, 'WEBHOOK_NOT_FOUND')
  async deliveries(@TeamIdParam() teamId: string, @WebhookIdParam() webhookId: string): Promise<DeliveriesResponse> {
    return { deliveries: await this.webhooks.deliveries(teamId, webhookId) };
  }
}
