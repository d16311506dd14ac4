import { iso } from '../kernel/time';
import { userLiteFor, userLiteView } from '../user';
import type { User, Viewer } from '../user';
import { ProjectMember } from './project-member.entity';

/** A project membership; with `viewer`, the member's email follows `canSeeEmail` (Guests see only their own). */
export function projectMemberView(row: ProjectMember, user: User, viewer?: Viewer) {
  return {
    id: row.id,
    member: viewer ? userLiteFor(user, viewer) : userLiteView(user),
    project: row.projectId,
    workspace: row.workspaceId,
    role: row.role,
    is_active: row.isActive,
    sort_order: row.sortOrder,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    created_by: row.createdById,
    updated_by: row.updatedById,
  };
}

export type ProjectMemberJson = ReturnType<typeof projectMemberView>;
