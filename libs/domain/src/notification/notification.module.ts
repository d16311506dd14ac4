import { Module } from '@nestjs/common';
import { IntakeFeatureModule } from '../intake';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { StateFeatureModule } from '../state';
import { UserFeatureModule } from '../user';
import { IssueSubscriberService, NotificationService } from './notification.service';
import { NotificationListener } from './notification.listener';
import { NotificationPreferenceService } from './notification-preference.service';
import { NotificationRepository } from './notification.repository';

/** The notification feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  imports: [UserFeatureModule, ProjectFeatureModule, StateFeatureModule, IssueFeatureModule, IntakeFeatureModule],
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
