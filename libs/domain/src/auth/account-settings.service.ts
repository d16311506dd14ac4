import { AuditActor, MeridianError, randomToken } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InstanceService } from '../instance';
import { WorkspaceInvitationService } from '../invitation';
import { ProjectMemberService } from '../project';
import { UserProfileService } from '../user';
import { WorkspaceService } from '../workspace';
import { auditActorById, recordAudit } from '../kernel/audit';
import { hashPassword } from '../kernel/password';
import { iso } from '../kernel/time';
import { AccountRepository } from './account.repository';
import { SessionService } from './session.service';
import { UserAccount } from './user-account.entity';

/**
 * A linked sign-in account (Plane's `AccountSerializer`, `plane/app/serializers/user.py`) without
 * the provider's tokens, which Meridian never keeps.
 */
export function linkedAccountView(a: UserAccount) {
  return {
    id: a.id,
    created_at: iso(a.createdAt),
    updated_at: iso(a.lastLoginAt ?? a.createdAt),
    user: a.userId,
    provider: a.provider,
    provider_account_id: a.providerAccountId,
    last_connected_at: iso(a.lastLoginAt ?? a.createdAt),
    metadata: {},
  };
}
export type LinkedAccountJson = ReturnType<typeof linkedAccountView>;

/**
 * The signed-in user's account (Plane 0.25.3 `plane/app/views/user/base.py`: UserEndpoint
 * `retrieve_instance_admin` and `deactivate`, AccountEndpoint).
 */
@Injectable()
export class AccountSettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accountRepo: AccountRepository,
    private readonly instance: InstanceService,
    private readonly sessions: SessionService,
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly projectMembers: ProjectMemberService,
    private readonly invitations: WorkspaceInvitationService,
  ) {}

  /** `{is_instance_admin}`. */
  async instanceAdminStatus(userId: string): Promise<{ is_instance_admin: boolean }> {
    return { is_instance_admin: await this.instance.isInstanceAdmin(userId) };
  }

  /** The user's linked OAuth accounts, oldest first. */
  async accounts(userId: string): Promise<LinkedAccountJson[]> {
    return (await this.accountRepo.linkedAccounts(userId)).map(linkedAccountView);
  }

  /** One of the user's linked accounts; 404 otherwise. */
  async account(userId: string, id: string): Promise<LinkedAccountJson> {
    const row = await this.accountRepo.linkedAccount(userId, id);
    if (!row) throw new MeridianError('NOT_FOUND');
    return linkedAccountView(row);
  }

  /** Unlinks one of the user's accounts (the provider no longer signs them in); 404 otherwise. */
  async unlink(userId: string, id: string): Promise<void> {
    if (!(await this.accountRepo.deleteLinkedAccount(userId, id))) throw new MeridianError('NOT_FOUND');
  }

  /**
   * `DELETE /api/users/me/` (Plane's `UserEndpoint.deactivate`): refused for an instance admin (400
   * `DEACTIVATE_INSTANCE_ADMIN`) and for the only active Admin of a project or workspace with other
   * active members (400 `DEACTIVATE_ONLY_PROJECT_ADMIN`, `DEACTIVATE_ONLY_WORKSPACE_ADMIN`). Else,
   * in one transaction: the user's project and workspace memberships become inactive, the
   * invitations to their email are deleted, the profile's onboarding is reset, the password is
   * replaced by a random one, the user is deactivated and every session (so every token) is revoked.
   * Audited in the same transaction (docs/audit.md): `user.deactivated`, and `member.removed` (`via:
   * deactivated`) for each workspace the user was an active member of.
   */
  async deactivate(userId: string, actor: AuditActor = auditActorById(userId)): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (await this.instance.isInstanceAdmin(userId, em)) throw new MeridianError('DEACTIVATE_INSTANCE_ADMIN');
      if (await this.projectMembers.isSoleAdminOfAny(userId, em))
        throw new MeridianError('DEACTIVATE_ONLY_PROJECT_ADMIN');
      if (await this.workspaces.isSoleAdminOfAny(userId, em))
        throw new MeridianError('DEACTIVATE_ONLY_WORKSPACE_ADMIN');
      const user = await this.users.userByIdOrFail(userId, em);
      const memberships = await this.workspaces.activeMembershipsOf(userId, em);
      await this.projectMembers.deactivateMembershipsOf(userId, em);
      await this.workspaces.deactivateMembershipsOf(userId, em);
      for (const m of memberships)
        await recordAudit(em, {
          event: 'member.removed',
          actor,
          workspaceId: m.workspaceId,
          target: { type: 'workspace_member', id: m.id },
          metadata: { member_id: userId, member_email: user.email, role: m.role, via: 'deactivated' },
        });
      await recordAudit(em, {
        event: 'user.deactivated',
        actor,
        target: { type: 'user', id: userId },
        metadata: { email: user.email, workspaces: memberships.length },
      });
      await this.invitations.deleteInvitationsTo(user.email, em);
      await this.users.resetOnboarding(userId, em);
      await this.users.updateUser(userId, { isActive: false, passwordHash: await hashPassword(randomToken(32)) }, em);
      await this.sessions.revokeAllOfUser(userId, undefined, em);
    });
  }
}
