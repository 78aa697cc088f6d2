import { Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { DeliveryWorker } from './delivery-worker';
import { WebhookSecrets } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Subscriptions and the delivery worker; only the server imports it (the CLI reads the tables itself). */
@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookSecrets, DeliveryWorker],
})
export class WebhooksModule {}
