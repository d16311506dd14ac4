import { MeridianError, randomToken } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkspaceInvitation } from '../invitation';
import { hashPassword } from '../kernel/password';
import { iso } from '../kernel/time';
import { InstanceAdmin } from '../instance-config';
import { ProjectMember } from '../project';
import { Profile, User } from '../user';
import { WorkspaceMember } from '../workspace';
import { AuthRepository } from './auth.repository';
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
    private readonly repo: AuthRepository,
    private readonly sessions: SessionService,
  ) {}

  /** `{is_instance_admin}`. */
  async instanceAdminStatus(userId: string): Promise<{ is_instance_admin: boolean }> {
    return { is_instance_admin: await this.dataSource.getRepository(InstanceAdmin).existsBy({ userId }) };
  }

  /** The user's linked OAuth accounts, oldest first. */
  async accounts(userId: string): Promise<LinkedAccountJson[]> {
    const rows = await this.dataSource
      .getRepository(UserAccount)
      .find({ where: { userId }, order: { createdAt: 'ASC' } });
    return rows.map(linkedAccountView);
  }

  /** One of the user's linked accounts; 404 otherwise. */
  async account(userId: string, id: string): Promise<LinkedAccountJson> {
    const row = await this.dataSource.getRepository(UserAccount).findOneBy({ id, userId });
    if (!row) throw new MeridianError('NOT_FOUND');
    return linkedAccountView(row);
  }

  /** Unlinks one of the user's accounts (the provider no longer signs them in); 404 otherwise. */
  async unlink(userId: string, id: string): Promise<void> {
    const res = await this.dataSource.getRepository(UserAccount).delete({ id, userId });
    if (!res.affected) throw new MeridianError('NOT_FOUND');
  }

  /**
   * `DELETE /api/users/me/` (Plane's `UserEndpoint.deactivate`): refused for an instance admin (400
   * `DEACTIVATE_INSTANCE_ADMIN`) and for the only active Admin of a project or workspace with other
   * active members (400 `DEACTIVATE_ONLY_PROJECT_ADMIN`, `DEACTIVATE_ONLY_WORKSPACE_ADMIN`). Else,
   * in one transaction: the user's project and workspace memberships become inactive, the
   * invitations to their email are deleted, the profile's onboarding is reset, the password is
   * replaced by a random one, the user is deactivated and every session (so every token) is revoked.
   */
  async deactivate(userId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (await em.getRepository(InstanceAdmin).existsBy({ userId }))
        throw new MeridianError('DEACTIVATE_INSTANCE_ADMIN');
      if (await this.repo.isSoleAdminOf(em, 'project_members', 'project_id', userId))
        throw new MeridianError('DEACTIVATE_ONLY_PROJECT_ADMIN');
      if (await this.repo.isSoleAdminOf(em, 'workspace_members', 'workspace_id', userId))
        throw new MeridianError('DEACTIVATE_ONLY_WORKSPACE_ADMIN');
      const user = await em.getRepository(User).findOneByOrFail({ id: userId });
      await em.update(ProjectMember, { memberId: userId, isActive: true }, { isActive: false });
      await em.update(WorkspaceMember, { memberId: userId, isActive: true }, { isActive: false });
      await em.getRepository(WorkspaceInvitation).softDelete({ email: user.email.toLowerCase() });
      await em.update(
        Profile,
        { userId },
        {
          lastWorkspaceId: null,
          isTourCompleted: false,
          isOnboarded: false,
          onboardingStep: {
            workspace_join: false,
            profile_complete: false,
            workspace_create: false,
            workspace_invite: false,
          },
        },
      );
      await em.update(User, { id: userId }, { isActive: false, passwordHash: await hashPassword(randomToken(32)) });
      await this.sessions.revokeAllOfUser(userId, undefined, em);
    });
  }
}
