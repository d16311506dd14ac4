import { EntityManager } from 'typeorm';
import { emitChange } from '../kernel/change-bus';
import type { ActivityEntry, ChangeContext } from '../kernel/change-context';
import { IssueActivity } from './issue-activity.entity';

export type { ActivityEntry, ChangeContext } from '../kernel/change-context';

/**
 * Writes work item history rows with the caller's transaction manager, so a change and its
 * history commit or roll back together (Plane writes them later from a Celery task), then emits
 * `issue.activities` (notifications, subscriptions, webhook events) in the same transaction.
 */
export async function writeActivities(em: EntityManager, ctx: ChangeContext, entries: ActivityEntry[]): Promise<void> {
  if (!entries.length) return;
  const epoch = Date.now() / 1000;
  const inserted = await em.insert(
    IssueActivity,
    entries.map((e, n) => ({
      // rows of one transaction would share now(): the wall clock plus n µs keeps their order
      createdAt: () => `clock_timestamp() + interval '${n} microseconds'`,
      workspaceId: ctx.workspaceId,
      projectId: ctx.projectId,
      issueId: e.issueId,
      verb: e.verb,
      field: e.field ?? null,
      oldValue: e.oldValue ?? null,
      newValue: e.newValue ?? null,
      oldIdentifier: e.oldIdentifier ?? null,
      newIdentifier: e.newIdentifier ?? null,
      comment: e.comment,
      issueCommentId: e.issueCommentId ?? null,
      actorId: ctx.userId,
      epoch,
      createdById: ctx.userId,
      updatedById: ctx.userId,
    })),
  );
  // notifications, subscriptions and webhook events follow from the same rows, in this transaction
  await emitChange(em, 'issue.activities', {
    ctx,
    entries,
    activityIds: inserted.identifiers.map((i) => (i?.id as string | undefined) ?? null),
  });
}

/** Plain text of an HTML fragment (for `description_stripped`, `comment_stripped`). */
export function stripHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
