import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChangeEvents, IssueCreateDraft, OnChange } from '../kernel/change-bus';
import type { ActivityEntry, ChangeContext } from '../kernel/change-context';
import { mentionedUserIds } from '../notification';
import { StateService } from '../state';
import { UserProfileService } from '../user';
import { EmailCandidate, EmailLogRow, EmailNotificationRepository } from './email-notification.repository';

const PLAN = 'email-notification';

/**
 * History rows never mailed: those of the kinds Plane's `notifications` task skips (cycle and module
 * activities, reactions, votes, drafts) and a deletion (`issue`: the work item is gone by the time
 * the mail would be sent).
 */
const NOT_MAILED = new Set([
  'cycles',
  'modules',
  'reaction',
  'issue_reaction',
  'comment_reaction',
  'vote',
  'draft',
  'issue',
]);

/** The email switch that gates a history row for a subscriber (`completed`: its new state is in the completed group). */
export function wantsEmail(c: EmailCandidate, entry: ActivityEntry, completed: boolean): boolean {
  if (entry.field === 'state') return c.state_change || (c.issue_completed && completed);
  if (entry.field === 'comment') return c.comment;
  return c.property_change;
}

/** Plane's `data` of a log row: the work item's id and the history row (`field` `mention` for a mention). */
function logData(
  issueId: string,
  actorId: string,
  entry: ActivityEntry,
  activityId: string | null,
  at: string,
  field = entry.field ?? null,
) {
  return {
    issue: { id: issueId },
    issue_activity: {
      id: activityId,
      verb: entry.verb,
      field,
      actor: actorId,
      new_value: entry.newValue ?? null,
      old_value: entry.oldValue ?? null,
      issue_comment: entry.issueCommentId ?? null,
      old_identifier: entry.oldIdentifier ?? null,
      new_identifier: entry.newIdentifier ?? null,
      activity_time: at,
    },
  };
}

/**
 * Writes the email-notification log rows of work item changes, in the change's transaction (Plane
 * `plane/bgtasks/notification_task.py`, `notifications`: the `EmailNotificationLog` rows):
 *
 * - every history row of a work item except the description's, the "created the issue" row and
 *   those Plane does not notify (`NOT_MAILED`: cycles, modules, reactions, votes, deletion) goes
 *   to each subscriber (and each assignee added by the same change), gated by their switches:
 *   `state` by `state_change`, or by `issue_completed` when the new state is in the completed
 *   group; `comment` by `comment`; every other field by `property_change`;
 * - a user newly mentioned in a comment or the description gets a `mention` row instead (gated by
 *   `mention`), and no subscriber rows of that change;
 * - a new work item: each assignee other than its creator gets one `assignees` row per assignee
 *   (Plane's `track_assignees` history of a create), each mentioned user a `mention` row.
 *
 * Never the actor; only active members of the project who may read the work item (a project Guest
 * only the work items they created, unless the project has `guest_view_all_features`). Plane lets
 * a state change through `property_change` when `state_change` is off (and a comment likewise):
 * not copied, each kind has its own switch (docs/decisions.md).
 */
@Injectable()
export class EmailNotificationWriter {
  private readonly logger = new Logger('EmailNotifications');

  constructor(
    private readonly repo: EmailNotificationRepository,
    private readonly states: StateService,
    private readonly users: UserProfileService,
  ) {}

  /** Runs `fn` so that a failure loses the mails of the change, never the change (logged). */
  private async safely(em: EntityManager, fn: () => Promise<void>): Promise<void> {
    const err = await this.repo.guarded(em, fn);
    if (err) this.logger.error(`email notification rows not written: ${(err as Error).message}`);
  }

  @OnChange('issue.activities')
  async onIssueActivities(em: EntityManager, { ctx, entries, activityIds }: ChangeEvents['issue.activities']) {
    const byIssue = new Map<string, Array<{ entry: ActivityEntry; activityId: string | null }>>();
    entries.forEach((entry, n) => {
      // the work item's own "created" row is not mailed (a create is handled by `issue.created`)
      if (!entry.issueId || (entry.verb === 'created' && !entry.field) || NOT_MAILED.has(entry.field ?? '')) return;
      const list = byIssue.get(entry.issueId) ?? [];
      list.push({ entry, activityId: activityIds[n] ?? null });
      byIssue.set(entry.issueId, list);
    });
    if (!byIssue.size) return;
    await this.safely(em, async () => {
      for (const [issueId, list] of byIssue) await this.writeFor(em, ctx, issueId, list);
    });
  }

  /** Before a create's lock: whether it will write rows (then it cannot join the group commit). */
  @OnChange('issue.create.prepare')
  onIssueCreatePrepare(_em: EntityManager, draft: IssueCreateDraft): void {
    const actor = draft.ctx.userId;
    const assignees = draft.assigned.filter((a) => a !== actor);
    const mentioned = mentionedUserIds(draft.descriptionHtml).filter((m) => m !== actor);
    if (!assignees.length && !mentioned.length) return;
    draft.needsTransaction = true;
    draft.scratch.set(PLAN, { assigned: draft.assigned, mentioned });
  }

  @OnChange('issue.created')
  async onIssueCreated(em: EntityManager, { draft, issue, activityId }: ChangeEvents['issue.created']) {
    const plan = draft.scratch.get(PLAN) as { assigned: string[]; mentioned: string[] } | undefined;
    if (plan) await this.safely(em, () => this.writeCreated(em, draft, issue, activityId, plan));
  }

  private async writeCreated(
    em: EntityManager,
    draft: IssueCreateDraft,
    issue: ChangeEvents['issue.created']['issue'],
    activityId: string | null,
    plan: { assigned: string[]; mentioned: string[] },
  ): Promise<void> {
    const ctx = draft.ctx;
    const at = new Date().toISOString();
    const candidates = await this.repo.candidates(em, issue.id, ctx.userId, [...plan.assigned, ...plan.mentioned]);
    const names = new Map((await this.users.liveUsers(plan.assigned, em)).map((u) => [u.id, u.displayName]));
    const rows: EmailLogRow[] = [];
    const row = (receiverId: string, data: Record<string, unknown>): EmailLogRow => ({
      workspaceId: ctx.workspaceId,
      projectId: issue.projectId,
      receiverId,
      triggeredById: ctx.userId,
      entityIdentifier: issue.id,
      data,
    });
    for (const c of candidates) {
      if (plan.mentioned.includes(c.id)) {
        if (c.mention) {
          const entry: ActivityEntry = {
            issueId: issue.id,
            verb: 'created',
            field: 'description',
            newValue: draft.descriptionHtml,
            comment: 'created the issue',
          };
          rows.push(row(c.id, logData(issue.id, ctx.userId, entry, activityId, at, 'mention')));
        }
      } else if (plan.assigned.includes(c.id) && c.property_change) {
        for (const a of plan.assigned) {
          const entry: ActivityEntry = {
            issueId: issue.id,
            verb: 'updated',
            field: 'assignees',
            oldValue: '',
            newValue: names.get(a) ?? '',
            newIdentifier: a,
            comment: 'added assignee ',
          };
          rows.push(row(c.id, logData(issue.id, ctx.userId, entry, activityId, at)));
        }
      }
    }
    await this.repo.insertLogs(em, rows);
  }

  private async writeFor(
    em: EntityManager,
    ctx: ChangeContext,
    issueId: string,
    list: Array<{ entry: ActivityEntry; activityId: string | null }>,
  ): Promise<void> {
    const newAssignees = list
      .filter(({ entry }) => entry.field === 'assignees' && entry.newIdentifier)
      .map(({ entry }) => entry.newIdentifier!);
    // newly mentioned users, per history row
    const mentions = list.map(({ entry }) => {
      if (entry.field === 'description' && entry.verb === 'updated') return newMentions(entry, ctx.userId);
      if (entry.field === 'comment' && (entry.verb === 'created' || entry.verb === 'updated'))
        return newMentions(entry, ctx.userId);
      return [];
    });
    const mentioned = new Set(mentions.flat());
    const changes = list.filter(({ entry }) => entry.field !== 'description');
    if (!changes.length && !mentioned.size) return;
    const candidates = await this.repo.candidates(em, issueId, ctx.userId, [...newAssignees, ...mentioned]);
    if (!candidates.length) return;
    const completed = await this.states.completedAmong(
      changes
        .filter(({ entry }) => entry.field === 'state' && entry.newIdentifier)
        .map(({ entry }) => entry.newIdentifier!),
      em,
    );
    const at = new Date().toISOString();
    const rows: EmailLogRow[] = [];
    const row = (receiverId: string, data: Record<string, unknown>): EmailLogRow => ({
      workspaceId: ctx.workspaceId,
      projectId: candidates[0].project_id,
      receiverId,
      triggeredById: ctx.userId,
      entityIdentifier: issueId,
      data,
    });
    for (const c of candidates) {
      if (mentioned.has(c.id)) {
        // a mention instead of the subscriber's mail of this change (Plane's)
        if (!c.mention) continue;
        list.forEach(({ entry, activityId }, n) => {
          if (mentions[n].includes(c.id))
            rows.push(row(c.id, logData(issueId, ctx.userId, entry, activityId, at, 'mention')));
        });
        continue;
      }
      if (!c.subscribed && !newAssignees.includes(c.id)) continue;
      for (const { entry, activityId } of changes) {
        const done = entry.field === 'state' && !!entry.newIdentifier && completed.has(entry.newIdentifier);
        if (wantsEmail(c, entry, done)) rows.push(row(c.id, logData(issueId, ctx.userId, entry, activityId, at)));
      }
    }
    await this.repo.insertLogs(em, rows);
  }
}

/** Users mentioned in the row's new text and not in its old one, other than the actor. */
function newMentions(entry: ActivityEntry, actorId: string): string[] {
  const old = new Set(mentionedUserIds(entry.verb === 'updated' ? entry.oldValue : null));
  return mentionedUserIds(entry.newValue).filter((id) => !old.has(id) && id !== actorId);
}
