import { EntityManager } from 'typeorm';
import { findWorkspaceMembership, insertWorkspaceMembership, updateWorkspaceMembership } from './workspace.repository';

/**
 * Makes `userId` an active member of the workspace with `role` (Admin 20, Member 15, Guest 5):
 * reactivates a former membership (keeping its row, with the new role) or creates one. An active
 * member is left as is. Used by invitations (accept, join on sign-up) and membership changes; runs
 * in the caller's transaction.
 */
export async function activateWorkspaceMember(
  em: EntityManager,
  workspaceId: string,
  userId: string,
  role: number,
  actorId: string | null,
): Promise<void> {
  const existing = await findWorkspaceMembership(em, workspaceId, userId);
  if (existing) {
    if (existing.isActive) return;
    await updateWorkspaceMembership(em, existing.id, { isActive: true, role, updatedById: actorId });
    return;
  }
  await insertWorkspaceMembership(em, {
    workspaceId,
    memberId: userId,
    role,
    createdById: actorId,
    updatedById: actorId,
  });
}
