import { Module } from '@nestjs/common';
import { CycleFeatureModule } from '../cycle';
import { IntakeFeatureModule } from '../intake';
import { IssueFeatureModule } from '../issue';
import { ModuleFeatureModule } from '../module';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookService } from './webhook.service';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookJobs } from './webhook.jobs';
import { WebhookRepository } from './webhook.repository';

/** The webhook feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [
    IssueFeatureModule,
    CycleFeatureModule,
    ModuleFeatureModule,
    ProjectFeatureModule,
    IntakeFeatureModule,
    UserFeatureModule,
  ],
  providers: [WebhookRepository, WebhookOutbox, WebhookService, WebhookDeliveryWorker, WebhookJobs],
  exports: [WebhookService],
})
export class WebhookFeatureModule {}
