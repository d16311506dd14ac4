import { EntityManager } from 'typeorm';
import { queueIssueActivityEvents } from '../webhook/webhook-events';
import { IssueActivity } from './issue-activity.entity';

/** Where a change happened and who made it. */
export interface ChangeContext {
  workspaceId: string;
  projectId: string;
  userId: string;
}

export interface ActivityEntry {
  issueId: string | null;
  verb: string;
  field?: string | null;
  oldValue?: string | null;
  newValue?: string | null;
  oldIdentifier?: string | null;
  newIdentifier?: string | null;
  comment: string;
  issueCommentId?: string | null;
}

/**
 * Writes work item history rows with the caller's transaction manager, so a change and its
 * history commit or roll back together (Plane writes them later from a Celery task).
 */
export async function writeActivities(em: EntityManager, ctx: ChangeContext, entries: ActivityEntry[]): Promise<void> {
  if (!entries.length) return;
  const epoch = Date.now() / 1000;
  await em.insert(
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
  // webhooks: one `issue` / `issue_comment` event per row, delivered if the transaction commits
  await queueIssueActivityEvents(em, ctx, entries);
}

/** Plain text of an HTML fragment (for `description_stripped`, `comment_stripped`). */
export function stripHtml(html: string): string {
  return html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}
