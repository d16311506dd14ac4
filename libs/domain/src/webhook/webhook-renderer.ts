import { EntityManager } from 'typeorm';
import { cycleView } from '../cycle';
import { countIssues } from '../cycle';
import { intakeIssueView } from '../intake';
import { commentView, IssueJson, issueView } from '../issue';
import { moduleView } from '../module';
import { projectView } from '../project';
import { userLiteView } from '../user';
import type { WebhookEvent } from './webhook.entity';
import type { WebhookRepository } from './webhook.repository';

type Json = Record<string, unknown>;

/**
 * The `data` of a delivery: the External API v1 representation of the object, read with the
 * committing transaction's manager (so it is the state the change commits, and on the embedded
 * engine's single connection it does not wait for itself). Null when the object is gone.
 */
export async function renderWebhookData(
  em: EntityManager,
  repo: WebhookRepository,
  event: WebhookEvent,
  id: string,
  actorId: string | null,
): Promise<Json | null> {
  switch (event) {
    case 'issue':
      return renderIssue(em, repo, id);
    case 'issue_comment': {
      const c = await repo.commentForRender(em, id);
      return c && !c.deletedAt ? commentView(c) : null;
    }
    case 'cycle': {
      const c = await repo.cycleForRender(em, id);
      if (!c || c.deletedAt) return null;
      const counts = await countIssues(em, 'cycle_issues', 'cycle_id', [id]);
      return cycleView(c, counts.get(id));
    }
    case 'module': {
      const m = await repo.moduleForRender(em, id);
      if (!m || m.deletedAt) return null;
      const [counts, members] = await Promise.all([
        countIssues(em, 'module_issues', 'module_id', [id]),
        repo.moduleMembers(em, id),
      ]);
      return moduleView(m, members.map((r) => r.memberId).sort(), counts.get(id));
    }
    case 'project': {
      const p = await repo.projectForRender(em, id);
      if (!p || p.deletedAt) return null;
      const c = await repo.projectCounts(em, id, actorId);
      return projectView(p, {
        total_members: c.total_members,
        total_cycles: c.total_cycles,
        total_modules: c.total_modules,
        is_member: c.member_role !== null,
        member_role: c.member_role,
        is_deployed: c.is_deployed,
      });
    }
    case 'intake_issue': {
      // queued by the intake row's id, or (from work item history) by its work item's id
      const r = await repo.findLiveIntakeIssue(em, id);
      if (!r) return null;
      const issue = await renderIssue(em, repo, r.issueId);
      return issue ? intakeIssueView(r, issue as unknown as IssueJson) : null;
    }
  }
}

async function renderIssue(em: EntityManager, repo: WebhookRepository, id: string): Promise<Json | null> {
  const issue = await repo.issueForRender(em, id);
  if (!issue || issue.deletedAt) return null;
  const [assignees, labels] = await Promise.all([repo.issueAssignees(em, id), repo.issueLabels(em, id)]);
  return issueView(issue, assignees.map((a) => a.assigneeId).sort(), labels.map((l) => l.labelId).sort());
}

/** Plane's `activity.actor`: the UserLite of who made the change. */
export async function renderActors(
  em: EntityManager,
  repo: WebhookRepository,
  ids: string[],
): Promise<Map<string, Json>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const users = await repo.users(em, wanted);
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
