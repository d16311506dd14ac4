import type { DataSource } from 'typeorm';
import { recordAudit } from '../kernel/audit';
import type { User } from '../user';
import type { WorkspaceService } from '../workspace';
import type { ClientInfo } from './session.service';
import { signInActor } from './sign-in-audit';

/**
 * Applies an SSO sign-in's workspace roles (workspace slug → role, from the connection's group →
 * role mappings: OIDC, SAML, LDAP) in one transaction: each membership created, reactivated or whose
 * role changes is a `member.role_changed` audit row (docs/audit.md; `via: "sso_groups"`, the
 * connection's id, `old_role` null for a new or reactivated membership) written in that transaction.
 * A workspace's owner keeps their role; unknown slugs are skipped.
 */
export async function applySsoGroupRoles(
  dataSource: DataSource,
  workspaces: WorkspaceService,
  connectionId: string,
  user: User,
  roles: Map<string, number>,
  client: ClientInfo,
): Promise<void> {
  if (roles.size === 0) return;
  await dataSource.transaction(async (em) => {
    for (const change of await workspaces.applyMemberRoles(user.id, roles, em))
      await recordAudit(em, {
        event: 'member.role_changed',
        actor: signInActor(client, user),
        workspaceId: change.workspaceId,
        target: { type: 'workspace_member', id: change.memberRowId },
        metadata: {
          member_id: user.id,
          member_email: user.email,
          old_role: change.oldRole,
          new_role: change.newRole,
          via: 'sso_groups',
          connection: connectionId,
        },
      });
  });
}
