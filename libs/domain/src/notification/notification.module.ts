import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { IssueSubscriberService, NotificationService } from './notification.service';
import { NotificationListener } from './notification.listener';

/** The notification feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [NotificationService, IssueSubscriberService, NotificationListener],
  exports: [NotificationService, IssueSubscriberService],
})
export class NotificationFeatureModule {}
