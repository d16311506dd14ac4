import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WorkspaceInvitation } from '../invitation';
import { ProjectMember } from '../project';
import { Profile, User } from '../user';
import { WorkspaceMember } from '../workspace';
import { UserAccount } from './user-account.entity';

/**
 * The auth feature's queries on accounts: the `users` rows it signs in, creates and changes (the
 * user room owns the table; auth reads and writes it by entity), the linked sign-in accounts
 * (`user_accounts`), and the rows a deactivation changes in other rooms' tables (project and
 * workspace memberships, invitations, the profile), by entity in the caller's transaction.
 * Methods that take an `EntityManager` run in the caller's transaction; `manager` is the one
 * outside any.
 */
@Injectable()
export class AccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager outside any transaction, for the methods that take one. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  // ---- users ----

  /** The user with this (normalised) email, or null. */
  userByEmail(email: string, em: EntityManager = this.manager): Promise<User | null> {
    return em.findOneBy(User, { email });
  }

  /** The user with this email; throws TypeORM's `EntityNotFoundError` when there is none. */
  userByEmailOrFail(email: string, em: EntityManager = this.manager): Promise<User> {
    return em.findOneByOrFail(User, { email });
  }

  /** The user with this id, or null. */
  userById(id: string, em: EntityManager = this.manager): Promise<User | null> {
    return em.findOneBy(User, { id });
  }

  /** The user with this id; throws TypeORM's `EntityNotFoundError` when there is none (a caller's bug). */
  userByIdOrFail(id: string, em: EntityManager = this.manager): Promise<User> {
    return em.findOneByOrFail(User, { id });
  }

  /**
   * Inserts a user and answers the saved row (its generated columns read back). A taken email
   * throws the unique violation of `uq_users_email`.
   */
  insertUser(em: EntityManager, row: Partial<User>): Promise<User> {
    return em.save(em.create(User, row));
  }

  /** Changes columns of one user. */
  async updateUser(em: EntityManager, id: string, patch: Partial<User>): Promise<void> {
    await em.update(User, { id }, patch);
  }

  // ---- linked sign-in accounts (`user_accounts`) ----

  /** The user's linked accounts, oldest first. */
  linkedAccounts(userId: string): Promise<UserAccount[]> {
    return this.manager.find(UserAccount, { where: { userId }, order: { createdAt: 'ASC' } });
  }

  /** One of the user's linked accounts, or null. */
  linkedAccount(userId: string, id: string): Promise<UserAccount | null> {
    return this.manager.findOneBy(UserAccount, { id, userId });
  }

  /** The link of an external account (`provider`, `providerAccountId`), or null. */
  linkOf(provider: string, providerAccountId: string): Promise<UserAccount | null> {
    return this.manager.findOneBy(UserAccount, { provider, providerAccountId });
  }

  /**
   * Links a user to an external account, signed in now. A link of the same external account
   * throws the unique violation of `uq_user_accounts_provider_account`.
   */
  async insertLink(userId: string, provider: string, providerAccountId: string): Promise<void> {
    await this.manager.insert(UserAccount, { userId, provider, providerAccountId, lastLoginAt: new Date() });
  }

  /** Stamps a link's last sign-in with now. */
  async stampLink(id: string): Promise<void> {
    await this.manager.update(UserAccount, { id }, { lastLoginAt: new Date() });
  }

  /** Deletes one of the user's linked accounts; false when there is none. */
  async deleteLinkedAccount(userId: string, id: string): Promise<boolean> {
    const res = await this.manager.delete(UserAccount, { id, userId });
    return !!res.affected;
  }

  // ---- deactivation: other rooms' rows, by entity, in the caller's transaction ----

  /** Makes the user's active project and workspace memberships inactive. */
  /** The user's active workspace memberships (row id, workspace, role), for the audit rows of a deactivation. */
  async activeWorkspaceMemberships(
    em: EntityManager,
    userId: string,
  ): Promise<{ id: string; workspaceId: string; role: number }[]> {
    const rows = await em.find(WorkspaceMember, {
      where: { memberId: userId, isActive: true },
      select: { id: true, workspaceId: true, role: true },
    });
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspaceId, role: r.role }));
  }

  async deactivateMemberships(em: EntityManager, userId: string): Promise<void> {
    await em.update(ProjectMember, { memberId: userId, isActive: true }, { isActive: false });
    await em.update(WorkspaceMember, { memberId: userId, isActive: true }, { isActive: false });
  }

  /** Soft-deletes the workspace invitations to an email (lower-cased as invitations store it). */
  async softDeleteInvitationsTo(em: EntityManager, email: string): Promise<void> {
    await em.softDelete(WorkspaceInvitation, { email: email.toLowerCase() });
  }

  /** Resets the profile's onboarding: no last workspace, tour and every onboarding step undone. */
  async resetOnboarding(em: EntityManager, userId: string): Promise<void> {
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
  }
}
