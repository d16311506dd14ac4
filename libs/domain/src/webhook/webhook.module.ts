import { Module } from '@nestjs/common';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookService } from './webhook.service';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';

/** The webhook feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [WebhookOutbox, WebhookService, WebhookDeliveryWorker],
  exports: [WebhookOutbox, WebhookService, WebhookDeliveryWorker],
})
export class WebhookFeatureModule {}
