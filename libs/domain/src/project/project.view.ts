import { iso } from '../kernel/time';
import { Project } from './project.entity';

/** What only the caller's membership and counts can tell about a project. */
export interface ProjectExtras {
  total_members: number;
  total_cycles: number;
  total_modules: number;
  is_member: boolean;
  member_role: number | null;
  is_deployed: boolean;
  sort_order?: number | null;
}

/** Plane's ProjectSerializer with its read-only extras (`plane/api/serializers/project.py`). */
export function projectView(project: Project, extras: ProjectExtras) {
  return {
    id: project.id,
    workspace: project.workspaceId,
    name: project.name,
    description: project.description,
    description_text: project.descriptionText ?? null,
    description_html: project.descriptionHtml ?? null,
    network: project.network,
    identifier: project.identifier,
    default_assignee: project.defaultAssigneeId,
    project_lead: project.projectLeadId,
    emoji: project.emoji,
    icon_prop: project.iconProp ?? null,
    module_view: project.moduleView,
    cycle_view: project.cycleView,
    issue_views_view: project.issueViewsView,
    page_view: project.pageView,
    intake_view: project.intakeView,
    inbox_view: project.intakeView,
    is_time_tracking_enabled: project.isTimeTrackingEnabled,
    is_issue_type_enabled: project.isIssueTypeEnabled,
    guest_view_all_features: project.guestViewAllFeatures,
    cover_image: project.coverImage,
    cover_image_asset: null,
    cover_image_url: project.coverImage,
    estimate: project.estimateId,
    archive_in: project.archiveIn,
    close_in: project.closeIn,
    logo_props: project.logoProps,
    default_state: project.defaultStateId,
    archived_at: iso(project.archivedAt),
    timezone: project.timezone,
    created_at: iso(project.createdAt),
    updated_at: iso(project.updatedAt),
    deleted_at: iso(project.deletedAt),
    created_by: project.createdById,
    updated_by: project.updatedById,
    ...extras,
  };
}

/**
 * Plane's `ProjectLiteSerializer` (`plane/app/serializers/project.py`): the `project_detail` of a
 * work item's history row or comment on the App API.
 */
export function projectLiteView(p: Project) {
  return {
    id: p.id,
    identifier: p.identifier,
    name: p.name,
    cover_image: p.coverImage,
    cover_image_url: p.coverImage,
    logo_props: p.logoProps,
    description: p.description,
  };
}
export type ProjectLiteJson = ReturnType<typeof projectLiteView>;
