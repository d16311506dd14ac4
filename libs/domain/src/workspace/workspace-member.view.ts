import { iso } from '../kernel/time';
import { defaultDisplayFilters, defaultDisplayProperties, defaultFilters } from '../kernel/display-defaults';
import { User } from '../user';
import { canSeeEmail } from '../user';
import { WorkspaceMember } from './workspace-member.entity';
import { Workspace } from './workspace.entity';

/** Plane's `WorkspaceLiteSerializer`. */
export function workspaceLiteView(ws: Workspace) {
  return { id: ws.id, name: ws.name, slug: ws.slug, logo_url: ws.logo };
}

/**
 * A workspace membership (Plane's `WorkSpaceMemberSerializer`, `plane/app/serializers/workspace.py`).
 * Admins and Members see the member's email and last sign-in medium; Guests see the lite user without
 * them, except on their own row when `viewerId` is given (`canSeeEmail`).
 */
export function workspaceMemberView(
  row: WorkspaceMember & { member: User; workspace: Workspace },
  viewerRole: number,
  viewerId?: string,
) {
  const u = row.member;
  const member: Record<string, unknown> = {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    display_name: u.displayName,
    avatar: u.avatar,
    avatar_url: u.avatar,
    is_bot: u.isBot,
  };
  if (canSeeEmail({ userId: viewerId ?? '', role: viewerRole }, u.id)) {
    member.email = u.email;
    member.last_login_medium = u.lastLoginMedium;
  }
  return {
    id: row.id,
    member,
    workspace: workspaceLiteView(row.workspace),
    role: row.role,
    company_role: row.companyRole,
    is_active: row.isActive,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}

export type WorkspaceMemberJson = ReturnType<typeof workspaceMemberView>;

/**
 * Plane's `get_default_props()` (`plane/db/models/workspace.py`): a workspace member's default view
 * settings, the same three defaults a new list settings row gets.
 */
export function defaultWorkspaceViewProps(): Record<string, unknown> {
  return {
    filters: defaultFilters(),
    display_filters: defaultDisplayFilters(),
    display_properties: defaultDisplayProperties(),
  };
}

/**
 * The caller's own membership (`GET workspace-members/me/`): `workspaceMemberView` with what Plane's
 * `WorkspaceMemberMeSerializer` adds and the web app's `IWorkspaceMemberMe` reads: `view_props` (the
 * member's own, saved by `POST workspace-views/`, else Plane's defaults), `default_props` and
 * `issue_props` (Plane's defaults: no Plane route changes them) and `draft_issue_count` (the caller's
 * live drafts in the workspace).
 */
export function workspaceMemberMeView(
  row: WorkspaceMember & { member: User; workspace: Workspace },
  viewerRole: number,
  viewerId: string,
  extra: { viewProps: Record<string, unknown> | null; draftIssueCount: number },
) {
  return {
    ...workspaceMemberView(row, viewerRole, viewerId),
    view_props: extra.viewProps ?? defaultWorkspaceViewProps(),
    default_props: defaultWorkspaceViewProps(),
    issue_props: { subscribed: true, assigned: true, created: true, all_issues: true },
    draft_issue_count: extra.draftIssueCount,
  };
}

export type WorkspaceMemberMeJson = ReturnType<typeof workspaceMemberMeView>;
