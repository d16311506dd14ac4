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
