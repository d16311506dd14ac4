import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { UserAccount } from './user-account.entity';

/**
 * The auth feature's queries on the linked sign-in accounts (`user_accounts`: OAuth, OIDC, SAML).
 * The `users` rows it signs in, creates and changes are the user room's (`UserProfileService`);
 * what a deactivation changes in other rooms (memberships, invitations, the profile) goes through
 * their doors, in the deactivation's transaction.
 */
@Injectable()
export class AccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager outside any transaction, for the methods that take one. */
  get manager(): EntityManager {
    return this.dataSource.manager;
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
}
