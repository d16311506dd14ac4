import { Module } from '@nestjs/common';
import { MailFeatureModule } from '../mail';
import { StateFeatureModule } from '../state';
import { UserFeatureModule } from '../user';
import { EmailNotificationRepository } from './email-notification.repository';
import { EmailNotificationJobs } from './email-notification.jobs';
import { EmailNotificationService } from './email-notification.service';
import { EmailNotificationWriter } from './email-notification-writer';

/** The email notifications: the log rows' writer (a change listener) and the sender; exports the sender. */
@Module({
  imports: [MailFeatureModule, StateFeatureModule, UserFeatureModule],
  providers: [EmailNotificationRepository, EmailNotificationWriter, EmailNotificationService, EmailNotificationJobs],
  exports: [EmailNotificationService],
})
export class EmailNotificationFeatureModule {}
