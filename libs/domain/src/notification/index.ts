// The notification feature's door: what other features and the API modules use.
export { IssueSubscriberService, NotificationService } from './notification.service';
export { NotificationFeatureModule } from './notification.module';
export { NotificationPreferenceService } from './notification-preference.service';
export type { NotificationPreferenceInput, NotificationPreferenceJson } from './notification-preference.service';
export { mentionedUserIds } from './notification-writer';
