import { DynamicModule, Module } from '@nestjs/common';
import { SqlModule } from '../database/sql';
import { WritePathModule } from '../write-path/write-path.module';
import { DeliveryWakeups } from './delivery-wakeups';
import { DeliveryWorker } from './delivery-worker';
import { EVENT_RENDERERS, EventRenderers } from './event-payload';
import { WebhookSecrets } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** Subscriptions and the delivery worker; only the server imports it (the CLI reads the tables itself). */
@Module({
  imports: [SqlModule, WritePathModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookSecrets, DeliveryWorker, DeliveryWakeups],
})
export class WebhooksModule {
  /** With the renderer of every event type, which the features own and the app composes (src/event-renderers.ts). */
  static forRoot(renderers: EventRenderers): DynamicModule {
    return { module: WebhooksModule, providers: [{ provide: EVENT_RENDERERS, useValue: renderers }] };
  }
}
