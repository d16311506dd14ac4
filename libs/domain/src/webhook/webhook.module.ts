import { Module } from '@nestjs/common';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookService } from './webhook.service';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookJobs } from './webhook.jobs';
import { WebhookRepository } from './webhook.repository';

/** The webhook feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [WebhookRepository, WebhookOutbox, WebhookService, WebhookDeliveryWorker, WebhookJobs],
  exports: [WebhookService],
})
export class WebhookFeatureModule {}
