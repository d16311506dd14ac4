import { EntityManager } from 'typeorm';
import { emitChange } from '../kernel/change-bus';
import type { ActivityEntry, ChangeContext } from '../kernel/change-context';
import { insertActivities } from './issue.repository';

export type { ActivityEntry, ChangeContext } from '../kernel/change-context';

/**
 * The fields whose empty side Plane 0.25.3 writes as `""` rather than null
 * (`plane/bgtasks/issue_activities_task.py`: `track_parent`, `track_start_date`,
 * `track_target_date`, `track_labels`, `track_assignees`, the cycle, module and relation
 * activities). Its web app reads `old_value === ""` as "added" and `new_value === ""` as "removed",
 * so a null there reads "removed … work item .". Every other kind leaves an empty side null, as
 * Plane does (estimate points, archive, reactions, votes, a link's or comment's creation).
 */
const BLANK_WHEN_EMPTY = new Set([
  'parent',
  'start_date',
  'target_date',
  'labels',
  'assignees',
  'cycles',
  'modules',
  'blocking',
  'blocked_by',
  'duplicate',
  'relates_to',
  'start_before',
  'start_after',
  'finish_before',
  'finish_after',
]);

/**
 * `old_value`/`new_value` of a history row as Plane stores them: `""` for the empty side of the
 * fields above and for a deleted link's `new_value` (`delete_link_activity`), else the value or null.
 * Webhook payloads keep null for an empty side (Plane maps `""` back to None for them).
 */
export function storedSides(
  field: string | null | undefined,
  verb: string,
  oldValue: string | null | undefined,
  newValue: string | null | undefined,
): { oldValue: string | null; newValue: string | null } {
  const blank = field != null && BLANK_WHEN_EMPTY.has(field);
  const deletedLink = field === 'link' && verb === 'deleted';
  return {
    oldValue: oldValue ?? (blank ? '' : null),
    newValue: newValue ?? (blank || deletedLink ? '' : null),
  };
}

/**
 * Writes work item history rows with the caller's transaction manager, so a change and its
 * history commit or roll back together (Plane writes them later from a Celery task), then emits
 * `issue.activities` (notifications, subscriptions, webhook events) in the same transaction.
 */
export async function writeActivities(em: EntityManager, ctx: ChangeContext, entries: ActivityEntry[]): Promise<void> {
  if (!entries.length) return;
  const epoch = Date.now() / 1000;
  const activityIds = await insertActivities(
    em,
    entries.map((e, n) => ({
      // rows of one transaction would share now(): the wall clock plus n µs keeps their order
      createdAt: () => `clock_timestamp() + interval '${n} microseconds'`,
      workspaceId: ctx.workspaceId,
      projectId: ctx.projectId,
      issueId: e.issueId,
      verb: e.verb,
      field: e.field ?? null,
      ...storedSides(e.field, e.verb, e.oldValue, e.newValue),
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
    activityIds,
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
