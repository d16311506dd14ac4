import { iso } from '../kernel/time';
import type { DisplayPropertiesBase } from './display-properties.base';
import type { RecentVisitRow } from './preference.repository';
import type { WorkspaceHomePreference } from './workspace-home-preference.entity';
import type { WorkspaceUserLink } from './workspace-user-link.entity';
import type { WorkspaceUserPreference } from './workspace-user-preference.entity';

/** A home widget as `GET home-preferences/` lists it (Plane's `.values("key", "is_enabled", "config", "sort_order")`). */
export function homePreferenceView(p: WorkspaceHomePreference) {
  return { key: p.key, is_enabled: p.isEnabled, config: p.config, sort_order: p.sortOrder };
}
export type HomePreferenceJson = ReturnType<typeof homePreferenceView>;

/** Plane's `WorkspaceHomePreferenceSerializer` (the PATCH answer): `{key, is_enabled, sort_order}`. */
export function homePreferenceUpdatedView(p: WorkspaceHomePreference) {
  return { key: p.key, is_enabled: p.isEnabled, sort_order: p.sortOrder };
}

/** Plane's `WorkspaceUserPreferenceSerializer`: `{key, is_pinned, sort_order}`. */
export function sidebarPreferenceView(p: WorkspaceUserPreference) {
  return { key: p.key, is_pinned: p.isPinned, sort_order: p.sortOrder };
}
export type SidebarPreferenceJson = ReturnType<typeof sidebarPreferenceView>;

/** Plane's `WorkspaceUserLinkSerializer` (`fields = "__all__"`). */
export function quickLinkView(l: WorkspaceUserLink) {
  return {
    id: l.id,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    deleted_at: iso(l.deletedAt),
    title: l.title,
    url: l.url,
    metadata: l.metadata,
    created_by: l.createdById,
    updated_by: l.updatedById,
    workspace: l.workspaceId,
    project: l.projectId,
    owner: l.ownerId,
  };
}
export type QuickLinkJson = ReturnType<typeof quickLinkView>;

/**
 * Plane's `WorkspaceRecentVisitSerializer`: the visit and its `entity_data` (a work item:
 * `IssueRecentVisitSerializer`; a project: `ProjectRecentVisitSerializer`).
 */
export function recentVisitView(v: RecentVisitRow) {
  return {
    id: v.id,
    entity_name: v.entity_name,
    entity_identifier: v.entity_identifier,
    entity_data:
      v.entity_name === 'issue'
        ? {
            id: v.entity_identifier,
            name: v.i_name,
            state: v.i_state_id,
            priority: v.i_priority,
            assignees: v.i_assignee_ids ?? [],
            type: v.i_type_id,
            sequence_id: v.i_sequence_id,
            project_id: v.project_id,
            project_identifier: v.p_identifier,
          }
        : {
            id: v.entity_identifier,
            name: v.p_name,
            logo_props: v.p_logo_props ?? {},
            project_members: v.p_member_ids ?? [],
            identifier: v.p_identifier,
          },
    visited_at: iso(new Date(v.visited_at)),
  };
}
export type RecentVisitJson = ReturnType<typeof recentVisitView>;

/**
 * Plane's `WorkspaceUserPropertiesSerializer` / `IssueUserPropertySerializer` /
 * `CycleUserPropertiesSerializer` / `ModuleUserPropertiesSerializer` (`fields = "__all__"`).
 */
export function displayPropertiesView(
  p: DisplayPropertiesBase & { projectId?: string; cycleId?: string; moduleId?: string },
) {
  return {
    id: p.id,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    deleted_at: iso(p.deletedAt),
    filters: p.filters,
    display_filters: p.displayFilters,
    display_properties: p.displayProperties,
    created_by: p.createdById,
    updated_by: p.updatedById,
    workspace: p.workspaceId,
    ...(p.projectId !== undefined ? { project: p.projectId } : {}),
    ...(p.cycleId !== undefined ? { cycle: p.cycleId } : {}),
    ...(p.moduleId !== undefined ? { module: p.moduleId } : {}),
    user: p.userId,
  };
}
export type DisplayPropertiesJson = ReturnType<typeof displayPropertiesView>;
