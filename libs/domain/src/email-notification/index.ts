// The email notification feature's door: what the scheduler, other features and the tests use.
export { EmailNotificationService, EMAIL_MAX_ATTEMPTS, emailBackoffMs } from './email-notification.service';
export type { EmailNotificationRun } from './email-notification.service';
export { EmailNotificationFeatureModule } from './email-notification.module';
