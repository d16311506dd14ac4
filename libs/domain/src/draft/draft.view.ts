import { iso } from '../kernel/time';
import type { DraftLinks } from './draft.repository';
import { DraftIssue } from './draft-issue.entity';

/**
 * A draft work item as Plane 0.25.3 renders it (`plane/app/serializers/draft.py`
 * `DraftIssueSerializer` / `DraftIssueDetailSerializer`, and the create answer's `.values(...)`):
 * the same keys for the list, the detail and the create.
 */
export function draftView(d: DraftIssue, links: DraftLinks) {
  return {
    id: d.id,
    name: d.name,
    state_id: d.stateId,
    sort_order: d.sortOrder,
    completed_at: iso(d.completedAt),
    estimate_point: d.estimatePointId,
    priority: d.priority,
    start_date: d.startDate,
    target_date: d.targetDate,
    project_id: d.projectId,
    parent_id: d.parentId,
    cycle_id: links.cycle_id,
    module_ids: links.module_ids,
    label_ids: links.label_ids,
    assignee_ids: links.assignee_ids,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
    created_by: d.createdById,
    updated_by: d.updatedById,
    type_id: d.typeId,
    description_html: d.descriptionHtml,
  };
}
export type DraftJson = ReturnType<typeof draftView>;
