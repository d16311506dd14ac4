import { EntityManager } from 'typeorm';
import type { CreatedIssue } from '../kernel/change-bus';
import type { ActivityEntry, ChangeContext } from '../kernel/change-context';
import type { Issue } from '../issue';
import { activeMembersReading, insertNotifications, subscribe, subscriberIds } from './notification.repository';

/**
 * What the writer reads of the rooms below it, through their doors, in the change's transaction
 * `em` (`NotificationListener` binds them to the issue, project and state services).
 */
export interface WriterReads {
  /** the live work item `id`, or null */
  issue(em: EntityManager, id: string): Promise<Issue | null>;
  /** the user ids assigned to the work item */
  assigneeIds(em: EntityManager, issueId: string): Promise<string[]>;
  /** the project's identifier (the project deleted or not), or null */
  projectIdentifier(em: EntityManager, projectId: string): Promise<string | null>;
  /** the state's name and group (the state deleted or not), or null */
  state(em: EntityManager, stateId: string): Promise<{ name: string; group: string } | null>;
}

/** Plane's `sender` values. */
export const SENDER = {
  assigned: 'in_app:issue_activities:assigned',
  created: 'in_app:issue_activities:created',
  subscribed: 'in_app:issue_activities:subscribed',
  mentioned: 'in_app:issue_activities:mentioned',
} as const;

const MENTION = /<mention-component\b[^>]*>/gi;
const ATTR = (name: string) => new RegExp(`\\b${name}\\s*=\\s*["']([^"']*)["']`, 'i');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * User ids mentioned in rich text, from Plane's editor markup
 * `<mention-component entity_name="user_mention" entity_identifier="USER_ID" …>`; an element without
 * `entity_name` counts as a user mention, one with another `entity_name` does not.
 */
export function mentionedUserIds(html: string | null | undefined): string[] {
  if (!html) return [];
  const out = new Set<string>();
  for (const tag of html.match(MENTION) ?? []) {
    const kind = ATTR('entity_name').exec(tag)?.[1];
    const id = ATTR('entity_identifier').exec(tag)?.[1];
    if (id && UUID.test(id) && (!kind || kind === 'user_mention')) out.add(id.toLowerCase());
  }
  return [...out];
}

/**
 * What the create path writes for notifications, decided before the work item exists (so before
 * the project's counter row lock): `subscribers`, written with the work item (its create
 * statement), and `notifications`, written after it with `writeCreateNotifications`. The rule is
 * `notifyFromActivities`' for a "created the issue" row, computed from the request instead of read
 * back: in the common case (no assignee other than the creator, no mention in the description)
 * the creator and the assignees are subscribed and nobody is notified, without a query; else the
 * creator, the assignees and the mentioned users who are active project members are subscribed,
 * each assignee other than the creator gets "assigned you to the work item" and each mentioned
 * user other than the creator "mentioned you in the description" (active members who may read it:
 * a project Guest only with `guest_view_all_features`).
 */
export interface CreateNotificationPlan {
  subscribers: string[];
  notifications: Array<Omit<Pending, 'entry' | 'activityId'>>;
  /** the rendered `data.issue` fields known before the create: project identifier, state name and group */
  identifier: string | null;
  state: { name: string; group: string } | null;
}

/** See `CreateNotificationPlan`; `state` the work item's state (`name`, `group`), or null. */
export async function planCreateNotifications(
  reads: WriterReads,
  em: EntityManager,
  ctx: ChangeContext,
  assigned: string[],
  descriptionHtml: string,
  state: { name: string; group: string } | null,
): Promise<CreateNotificationPlan> {
  const mentioned = mentionedUserIds(descriptionHtml).filter((m) => m !== ctx.userId);
  if (!assigned.some((a) => a !== ctx.userId) && !mentioned.length) {
    return { subscribers: [...new Set([ctx.userId, ...assigned])], notifications: [], identifier: null, state: null };
  }
  const pending: Array<Omit<Pending, 'entry' | 'activityId'>> = [];
  for (const a of assigned)
    if (a !== ctx.userId)
      pending.push({ receiver: a, sender: SENDER.assigned, title: 'assigned you to the work item' });
  for (const m of mentioned)
    pending.push({ receiver: m, sender: SENDER.mentioned, title: 'mentioned you in the description' });
  const wanted = [ctx.userId, ...assigned, ...mentioned];
  // the work item is the caller's: a Guest reads it only with the project's guest_view_all_features
  const members = await activeMembersReading(em, ctx.projectId, ctx.userId, wanted);
  const notifications = pending.filter((p) => members.get(p.receiver) === true);
  const identifier = notifications.length ? await reads.projectIdentifier(em, ctx.projectId) : null;
  return {
    subscribers: [...new Set(wanted.filter((u) => members.has(u)))],
    notifications,
    identifier,
    state: state ? { name: state.name, group: state.group } : null,
  };
}

/** Inserts the notifications of `plan` (one statement, none when empty) for the created work item and its history row. */
export async function writeCreateNotifications(
  em: EntityManager,
  ctx: ChangeContext,
  plan: CreateNotificationPlan,
  issue: CreatedIssue,
  entry: ActivityEntry,
  activityId: string | null,
): Promise<void> {
  if (!plan.notifications.length) return;
  const issueData = {
    id: issue.id,
    name: issue.name,
    identifier: plan.identifier,
    sequence_id: issue.sequenceId,
    state_name: plan.state?.name ?? null,
    state_group: plan.state?.group ?? null,
  };
  await insertNotifications(
    em,
    plan.notifications.map((p) =>
      notificationRow(ctx, issue.projectId, issue.id, issueData, { ...p, entry, activityId }),
    ),
  );
}

interface Pending {
  receiver: string;
  sender: string;
  entry: ActivityEntry;
  activityId: string | null;
  title: string;
}

/**
 * Notifications derived from work item history rows, in the change's transaction (the rule lives
 * here only; `writeActivities` calls it):
 * - an assignment (work item created with assignees, or `assignees` added) notifies the new
 *   assignee, who becomes a subscriber;
 * - a comment notifies the work item's subscribers and assignees except its author, who becomes a
 *   subscriber;
 * - a mention (`<mention-component entity_identifier="USER_ID">` newly present in a comment or the
 *   description) notifies the mentioned user, who becomes a subscriber.
 * Nobody is notified of their own change, and only active members of the project who may read the
 * work item are notified (someone who left does not learn about it, nor does a project Guest about
 * another's work item unless the project has `guest_view_all_features`: Plane's Guest rule; Plane
 * notifies them). Subscriptions follow project membership only, as in Plane. One notification per receiver and
 * history row; a mention wins over the plain comment notification, as in Plane.
 */
export async function notifyFromActivities(
  reads: WriterReads,
  em: EntityManager,
  ctx: ChangeContext,
  entries: ActivityEntry[],
  activityIds: Array<string | null>,
): Promise<void> {
  const pending: Pending[] = [];
  const byIssue = new Map<string, Array<{ entry: ActivityEntry; activityId: string | null }>>();
  entries.forEach((entry, n) => {
    if (!entry.issueId) return;
    const relevant =
      (entry.verb === 'created' && !entry.field) ||
      entry.field === 'assignees' ||
      entry.field === 'comment' ||
      entry.field === 'description';
    if (!relevant) return;
    const list = byIssue.get(entry.issueId) ?? [];
    list.push({ entry, activityId: activityIds[n] ?? null });
    byIssue.set(entry.issueId, list);
  });
  if (!byIssue.size) return;

  for (const [issueId, list] of byIssue) {
    const issue = await reads.issue(em, issueId);
    if (!issue) continue;
    const assignees = await reads.assigneeIds(em, issueId);
    const newSubscribers: string[] = [];
    for (const { entry, activityId } of list) {
      const mentionsIn = (html: string | null | undefined, before: string | null | undefined) => {
        const old = new Set(mentionedUserIds(before));
        return mentionedUserIds(html).filter((id) => !old.has(id) && id !== ctx.userId);
      };
      if (entry.verb === 'created' && !entry.field) {
        newSubscribers.push(ctx.userId, ...assignees);
        for (const a of assignees)
          if (a !== ctx.userId)
            pending.push({
              receiver: a,
              sender: SENDER.assigned,
              entry,
              activityId,
              title: 'assigned you to the work item',
            });
        for (const m of mentionsIn(issue.descriptionHtml, null)) {
          newSubscribers.push(m);
          pending.push({
            receiver: m,
            sender: SENDER.mentioned,
            entry,
            activityId,
            title: 'mentioned you in the description',
          });
        }
      } else if (entry.field === 'assignees' && entry.newIdentifier) {
        newSubscribers.push(entry.newIdentifier);
        if (entry.newIdentifier !== ctx.userId) {
          pending.push({
            receiver: entry.newIdentifier,
            sender: SENDER.assigned,
            entry,
            activityId,
            title: 'assigned you to the work item',
          });
        }
      } else if (entry.field === 'description' && entry.verb === 'updated') {
        for (const m of mentionsIn(entry.newValue, entry.oldValue)) {
          newSubscribers.push(m);
          pending.push({
            receiver: m,
            sender: SENDER.mentioned,
            entry,
            activityId,
            title: 'mentioned you in the description',
          });
        }
      } else if (entry.field === 'comment' && (entry.verb === 'created' || entry.verb === 'updated')) {
        const mentioned = mentionsIn(entry.newValue, entry.verb === 'updated' ? entry.oldValue : null);
        for (const m of mentioned)
          pending.push({
            receiver: m,
            sender: SENDER.mentioned,
            entry,
            activityId,
            title: 'mentioned you in a comment',
          });
        if (entry.verb === 'created') {
          const followers = await subscriberIds(em, issueId);
          for (const f of new Set([...followers, ...assignees])) {
            if (f === ctx.userId || mentioned.includes(f)) continue;
            const sender =
              issue.createdById === f ? SENDER.created : assignees.includes(f) ? SENDER.assigned : SENDER.subscribed;
            pending.push({ receiver: f, sender, entry, activityId, title: entry.comment || 'commented' });
          }
          newSubscribers.push(ctx.userId);
        }
        newSubscribers.push(...mentioned);
      }
    }
    const members = await activeMembersReading(em, issue.projectId, issue.createdById, [
      ...newSubscribers,
      ...pending.map((p) => p.receiver),
    ]);
    await subscribe(
      em,
      ctx,
      issueId,
      newSubscribers.filter((u) => members.has(u)),
    );
    // only those who may read the work item: not a Guest of the project who did not create it
    // (unless the project has guest_view_all_features), whatever made them a receiver
    const mine = pending.splice(0).filter((p) => members.get(p.receiver) === true);
    if (!mine.length) continue;
    const identifier = await reads.projectIdentifier(em, issue.projectId);
    const state = issue.stateId ? await reads.state(em, issue.stateId) : null;
    const issueData = {
      id: issue.id,
      name: issue.name,
      identifier,
      sequence_id: issue.sequenceId,
      state_name: state?.name ?? null,
      state_group: state?.group ?? null,
    };
    await insertNotifications(
      em,
      mine.map((p) => notificationRow(ctx, issue.projectId, issue.id, issueData, p)),
    );
  }
}

/** A `notifications` row for `p` about work item `issueId` (`issueData`: its rendered `data.issue`). */
function notificationRow(
  ctx: ChangeContext,
  projectId: string,
  issueId: string,
  issueData: Record<string, unknown>,
  p: Pending,
) {
  const html = p.entry.field === 'comment' ? (p.entry.newValue ?? '<p></p>') : '<p></p>';
  return {
    workspaceId: ctx.workspaceId,
    projectId,
    entityIdentifier: issueId,
    entityName: 'issue',
    title: p.title,
    messageHtml: html,
    messageStripped: html
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    data: {
      issue: issueData,
      issue_activity: {
        id: p.activityId,
        verb: p.entry.verb,
        field: p.entry.field ?? null,
        actor: ctx.userId,
        new_value: p.entry.newValue ?? null,
        old_value: p.entry.oldValue ?? null,
        old_identifier: p.entry.oldIdentifier ?? null,
        new_identifier: p.entry.newIdentifier ?? null,
        issue_comment: p.entry.issueCommentId ?? null,
      },
    },
    sender: p.sender,
    triggeredById: ctx.userId,
    receiverId: p.receiver,
    createdById: ctx.userId,
    updatedById: ctx.userId,
  };
}
