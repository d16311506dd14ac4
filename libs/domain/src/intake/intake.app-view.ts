import type { Issue, IssueQueryService } from '../issue';
import { iso } from '../kernel/time';
import { IntakeIssueJson } from './intake.view';

/**
 * An intake item on the App API: Plane's `IntakeIssueSerializer` / `IntakeIssueDetailSerializer`
 * (`plane/app/serializers/intake.py`), whose `issue` is the work item object the web app's intake
 * store keeps (`IssueIntakeSerializer`: `id`, `name`, `priority`, `sequence_id`, `project_id`,
 * `created_at`, `label_ids`, `created_by`; here with the detail's fields too: `assignee_ids`,
 * `state_id`, `description_html`, dates). The v1 keys stay (`issue_detail`, `intake`, `inbox`, …);
 * the work item's id is `issue.id`.
 */
export function appIntakeIssueView(j: IntakeIssueJson) {
  const i = j.issue_detail;
  return {
    ...j,
    issue: {
      id: i.id,
      name: i.name,
      priority: i.priority,
      sequence_id: i.sequence_id,
      project_id: i.project,
      workspace_id: i.workspace,
      state_id: i.state,
      parent_id: i.parent,
      estimate_point: i.estimate_point,
      start_date: i.start_date,
      target_date: i.target_date,
      sort_order: i.sort_order,
      completed_at: i.completed_at,
      archived_at: i.archived_at,
      is_draft: i.is_draft,
      description_html: i.description_html,
      description_stripped: i.description_stripped,
      label_ids: i.labels,
      assignee_ids: i.assignees,
      type_id: i.type_id,
      created_at: i.created_at,
      updated_at: i.updated_at,
      created_by: i.created_by,
      updated_by: i.updated_by,
    },
  };
}
export type AppIntakeIssueJson = ReturnType<typeof appIntakeIssueView>;

/** The App API detail values of a work item (`IssueQueryService.detailAppById`). */
type AppIssueDetail = Awaited<ReturnType<IssueQueryService['detailAppById']>>;

/**
 * An intake item in Plane's `IntakeIssueDetailSerializer` shape (retrieve, create and update):
 * `issue` is the work item's detail (`IssueDetailSerializer` values: the ids, counts, `cycle_id`,
 * `module_ids`, `description_html`) over the list's keys, and `duplicate_issue_detail` the work
 * item of `duplicate_to` (`IssueIntakeSerializer`: `id`, `name`, `priority`, `sequence_id`,
 * `project_id`, `created_at`, `created_by`) or null.
 */
export function appIntakeIssueDetailView(j: IntakeIssueJson, detail: AppIssueDetail, duplicate: Issue | null) {
  const base = appIntakeIssueView(j);
  return {
    ...base,
    issue: { ...base.issue, ...detail },
    duplicate_issue_detail: duplicate
      ? {
          id: duplicate.id,
          name: duplicate.name,
          priority: duplicate.priority,
          sequence_id: duplicate.sequenceId,
          project_id: duplicate.projectId,
          created_at: iso(duplicate.createdAt),
          created_by: duplicate.createdById,
        }
      : null,
  };
}
export type AppIntakeIssueDetailJson = ReturnType<typeof appIntakeIssueDetailView>;
