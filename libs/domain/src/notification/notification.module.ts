import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { IssueSubscriberService, NotificationService } from './notification.service';
import { NotificationListener } from './notification.listener';
import { NotificationPreferenceService } from './notification-preference.service';
import { NotificationRepository } from './notification.repository';

/** The notification feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [
    NotificationRepository,
    NotificationService,
    IssueSubscriberService,
    NotificationListener,
    NotificationPreferenceService,
  ],
  exports: [NotificationService, IssueSubscriberService, NotificationPreferenceService],
})
export class NotificationFeatureModule {}
