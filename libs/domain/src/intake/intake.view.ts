import { IssueJson } from '../issue';
import { iso } from '../kernel/time';
import { IntakeIssue } from './intake-issue.entity';

/**
 * Plane's `IntakeIssueSerializer` (`plane/api/serializers/intake.py`): the row, `inbox` = `intake`,
 * and the full work item as `issue_detail`.
 */
export function intakeIssueView(r: IntakeIssue, issue: IssueJson) {
  return {
    id: r.id,
    intake: r.intakeId,
    inbox: r.intakeId,
    issue: r.issueId,
    status: r.status,
    snoozed_till: iso(r.snoozedTill),
    duplicate_to: r.duplicateToId,
    source: r.source,
    source_email: r.sourceEmail,
    external_source: r.externalSource,
    external_id: r.externalId,
    extra: r.extra,
    project: r.projectId,
    workspace: r.workspaceId,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    deleted_at: iso(r.deletedAt),
    created_by: r.createdById,
    updated_by: r.updatedById,
    issue_detail: issue,
  };
}
export type IntakeIssueJson = ReturnType<typeof intakeIssueView>;
