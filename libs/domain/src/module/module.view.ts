import { IssueCounts, planningLinkView, ZERO_COUNTS } from '../cycle';
import { iso, rowStamps } from '../kernel/time';
import { Module } from './module.entity';
import { ModuleIssue } from './module-issue.entity';

/** Plane's ModuleSerializer plus `members` (ids) and the counts (`plane/api/serializers/module.py`). */
export function moduleView(m: Module, members: string[], counts: IssueCounts = ZERO_COUNTS) {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    description_text: m.descriptionText ?? null,
    description_html: m.descriptionHtml ?? null,
    start_date: m.startDate,
    target_date: m.targetDate,
    status: m.status,
    lead: m.leadId,
    members,
    view_props: m.viewProps,
    logo_props: m.logoProps,
    sort_order: m.sortOrder,
    external_source: m.externalSource,
    external_id: m.externalId,
    archived_at: iso(m.archivedAt),
    project: m.projectId,
    workspace: m.workspaceId,
    ...counts,
    ...rowStamps(m),
  };
}
export type ModuleJson = ReturnType<typeof moduleView>;

/** A module-issue link row (Plane's ModuleIssueSerializer), with `sub_issues_count`. */
export function moduleIssueView(l: ModuleIssue, subIssues = 0) {
  return planningLinkView('module', l.moduleId, l, subIssues);
}
