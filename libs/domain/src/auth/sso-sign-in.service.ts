import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkspaceInvitationService } from '../invitation';
import { User, UserProfileService } from '../user';
import { WorkspaceService } from '../workspace';
import { AccountRepository } from './account.repository';
import { normaliseEmail } from './account.service';
import { AuthFlowService } from './auth-flow.service';
import { AuthRepository } from './auth.repository';
import type { ClientInfo } from './session.service';
import type { ResolvedSsoConnection } from './sso-connection.service';
import { applySsoGroupRoles } from './sso-roles';

/** Who an identity provider says signed in, after the protocol's checks (OIDC claims, a SAML assertion). */
export interface SsoIdentity {
  /**
   * the stable external account to link (`user_accounts`: provider `oidc`/`saml`, account
   * `<connection id>:<subject>`), or null when the provider gives none (a transient SAML NameID)
   */
  link: { provider: string; accountId: string } | null;
  /** the email the provider gives (any case), or null */
  email: string | null;
  /** false when the provider says the email is unverified (refused) */
  emailVerified?: boolean;
  displayName: string | null;
  /** the user's groups, for the connection's group → role mappings */
  groups: string[];
}

/**
 * The user side of an enterprise sign-in, shared by every kind of SSO connection
 * (docs/sso-oidc.md "Which user", docs/sso-saml.md): the user is found by the linked external
 * account, else by email (which must be of one of the connection's domains), else created
 * (just-in-time) or refused (invitation only); then the connection's group → workspace role mappings
 * are applied (each change audited, `applySsoGroupRoles`). Throws 422 `INVALID_EMAIL`, 403 `SSO_INVITATION_REQUIRED`, `USER_ACCOUNT_DEACTIVATED`.
 */
@Injectable()
export class SsoSignInService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly accounts: AccountRepository,
    private readonly flows: AuthFlowService,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly invitations: WorkspaceInvitationService,
  ) {}

  async signIn(connection: ResolvedSsoConnection, client: ClientInfo, identity: SsoIdentity): Promise<User> {
    const email = identity.email?.includes('@') ? normaliseEmail(identity.email) : null;
    const domain = email?.slice(email.lastIndexOf('@') + 1);
    if (!email || !domain || !connection.domains.includes(domain) || identity.emailVerified === false) {
      throw new MeridianError(
        'INVALID_EMAIL',
        `The identity provider gave no verified email of ${connection.domains.join(', ')}.`,
      );
    }
    let user = identity.link ? await this.linkedUser(identity.link.provider, identity.link.accountId) : null;
    if (!user) {
      const existing = await this.users.userByEmail(email);
      if (existing && !existing.isActive) throw new MeridianError('USER_ACCOUNT_DEACTIVATED');
      if (!existing && !connection.jitProvisioning && !(await this.invitations.hasPendingFor(email))) {
        throw new MeridianError('SSO_INVITATION_REQUIRED');
      }
      user = await this.flows.findOrCreateVerified(email, { displayName: identity.displayName }, undefined, 'sso');
      if (identity.link) await this.repo.linkAccount(user.id, identity.link.provider, identity.link.accountId);
    }
    if (!user.isActive) throw new MeridianError('USER_ACCOUNT_DEACTIVATED');
    const groups = new Set(identity.groups);
    const roles = new Map<string, number>();
    for (const m of connection.groupRoleMappings) {
      if (groups.has(m.group)) roles.set(m.workspace_slug, Math.max(roles.get(m.workspace_slug) ?? 0, m.role));
    }
    await applySsoGroupRoles(this.dataSource, this.workspaces, connection.id, user, roles, client);
    return user;
  }

  /** The user linked to an external account (`provider`, `accountId`), or null; the link's last sign-in is stamped. */
  private async linkedUser(provider: string, accountId: string): Promise<User | null> {
    const linked = await this.accounts.linkOf(provider, accountId);
    if (!linked) return null;
    await this.accounts.stampLink(linked.id);
    return this.users.userById(linked.userId);
  }
}
