import { iso } from '../kernel/time';
import { Workspace } from '../workspace';
import { workspaceLiteView } from '../workspace';
import { WorkspaceInvitation } from './workspace-invitation.entity';

/**
 * Plane's `WorkSpaceMemberInviteSerializer` (`plane/app/serializers/workspace.py`) without its
 * `token` (a secret that only the invitation email carries). `invite_link` is the web path without
 * that secret.
 */
export function invitationView(inv: WorkspaceInvitation, ws: Workspace) {
  return {
    id: inv.id,
    email: inv.email,
    accepted: inv.accepted,
    responded_at: iso(inv.respondedAt),
    message: inv.message,
    role: inv.role,
    workspace: workspaceLiteView(ws),
    invite_link: `/workspace-invitations/?${new URLSearchParams({ invitation_id: inv.id, email: inv.email, slug: ws.slug })}`,
    created_at: iso(inv.createdAt),
    updated_at: iso(inv.updatedAt),
    created_by: inv.createdById,
    updated_by: inv.updatedById,
  };
}

export type InvitationJson = ReturnType<typeof invitationView>;
