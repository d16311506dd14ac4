import { iso } from '../kernel/time';
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
