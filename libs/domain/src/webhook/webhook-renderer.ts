import { EntityManager } from 'typeorm';
import { CycleService, cycleView } from '../cycle';
import { IntakeService, intakeIssueView } from '../intake';
import { commentView, IssueChildrenService, IssueJson, IssueQueryService, issueView } from '../issue';
import { ModuleService, moduleView } from '../module';
import { ProjectService, projectView } from '../project';
import { UserProfileService, userLiteView } from '../user';
import type { WebhookEvent } from './webhook.entity';

type Json = Record<string, unknown>;

/**
 * The doors a delivery's `data` is read through: each room renders its own rows, read in the
 * committing transaction (`em`).
 */
export interface WebhookReads {
  issues: IssueQueryService;
  comments: IssueChildrenService;
  cycles: CycleService;
  modules: ModuleService;
  projects: ProjectService;
  intake: IntakeService;
  users: UserProfileService;
}

/**
 * The `data` of a delivery: the External API v1 representation of the object, read with the
 * committing transaction's manager (so it is the state the change commits, and on the embedded
 * engine's single connection it does not wait for itself) through the owners' doors. Null when
 * the object is gone.
 */
export async function renderWebhookData(
  em: EntityManager,
  reads: WebhookReads,
  event: WebhookEvent,
  id: string,
  actorId: string | null,
): Promise<Json | null> {
  switch (event) {
    case 'issue':
      return renderIssue(em, reads, id);
    case 'issue_comment': {
      const c = await reads.comments.commentWithDeleted(id, em);
      return c && !c.deletedAt ? commentView(c) : null;
    }
    case 'cycle': {
      const c = await reads.cycles.findWithDeleted(id, em);
      if (!c || c.deletedAt) return null;
      const counts = await reads.cycles.issueCounts([id], em);
      return cycleView(c, counts.get(id));
    }
    case 'module': {
      const m = await reads.modules.findWithDeleted(id, em);
      if (!m || m.deletedAt) return null;
      const [counts, members] = await Promise.all([
        reads.modules.issueCounts([id], em),
        reads.modules.memberIds(id, em),
      ]);
      return moduleView(m, members, counts.get(id));
    }
    case 'project': {
      const p = await reads.projects.findWithDeleted(id, em);
      if (!p || p.deletedAt) return null;
      return projectView(p, await reads.projects.representationExtras(id, actorId, em));
    }
    case 'intake_issue': {
      // queued by the intake row's id, or (from work item history) by its work item's id
      const r = await reads.intake.liveRowByIdOrIssue(id, em);
      if (!r) return null;
      const issue = await renderIssue(em, reads, r.issueId);
      return issue ? intakeIssueView(r, issue as unknown as IssueJson) : null;
    }
  }
}

async function renderIssue(em: EntityManager, reads: WebhookReads, id: string): Promise<Json | null> {
  const issue = await reads.issues.issueWithDeleted(id, em);
  if (!issue || issue.deletedAt) return null;
  const [assignees, labels] = await Promise.all([reads.issues.assigneeIds(id, em), reads.issues.labelIds(id, em)]);
  return issueView(issue, assignees.sort(), labels.sort());
}

/** Plane's `activity.actor`: the UserLite of who made the change. */
export async function renderActors(em: EntityManager, reads: WebhookReads, ids: string[]): Promise<Map<string, Json>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const users = await reads.users.liveUsers(wanted, em);
  return new Map(users.map((u) => [u.id, userLiteView(u) as Json]));
}

/** Keys that change with every write or are derived, never reported as changed fields. */
export const DERIVED_KEYS = new Set([
  'updated_at',
  'updated_by',
  'created_at',
  'created_by',
  'deleted_at',
  'members',
  'total_members',
  'total_cycles',
  'total_modules',
  'is_member',
  'member_role',
  'is_deployed',
  'total_issues',
  'completed_issues',
  'cancelled_issues',
  'started_issues',
  'unstarted_issues',
  'backlog_issues',
]);
