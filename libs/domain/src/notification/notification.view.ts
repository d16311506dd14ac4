import { iso } from '../kernel/time';
import { User } from '../user';
import { IssueSubscriber } from './issue-subscriber.entity';
import { Notification } from './notification.entity';

/** Plane's UserLite as notifications carry it (`triggered_by_details`): no email. */
function actorView(u: User | undefined) {
  if (!u) return null;
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    display_name: u.displayName,
    avatar: u.avatar,
    avatar_url: u.avatar,
    is_bot: u.isBot,
  };
}

/** Plane's NotificationSerializer, with `triggered_by_details` and the intake/mention flags. */
export function notificationView(n: Notification, actor?: User, inIntake = false) {
  return {
    id: n.id,
    workspace: n.workspaceId,
    project: n.projectId,
    entity_identifier: n.entityIdentifier,
    entity_name: n.entityName,
    title: n.title,
    message: n.message,
    message_html: n.messageHtml,
    message_stripped: n.messageStripped,
    data: n.data,
    sender: n.sender,
    triggered_by: n.triggeredById,
    triggered_by_details: actorView(actor),
    receiver: n.receiverId,
    read_at: iso(n.readAt),
    snoozed_till: iso(n.snoozedTill),
    archived_at: iso(n.archivedAt),
    is_inbox_issue: inIntake,
    is_intake_issue: inIntake,
    is_mentioned_notification: n.sender.includes('mentioned'),
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
    created_by: n.createdById,
    updated_by: n.updatedById,
  };
}
export type NotificationJson = ReturnType<typeof notificationView>;

/** A subscription row (Plane's IssueSubscriberSerializer) with the subscriber's lite user. */
export function subscriberView(s: IssueSubscriber, user?: User) {
  return {
    id: s.id,
    issue: s.issueId,
    subscriber: s.subscriberId,
    subscriber_details: actorView(user),
    project: s.projectId,
    workspace: s.workspaceId,
    created_at: iso(s.createdAt),
    created_by: s.createdById,
  };
}
export type SubscriberJson = ReturnType<typeof subscriberView>;
