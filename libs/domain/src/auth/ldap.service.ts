import { MeridianError } from '#common';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkspaceInvitationService } from '../invitation';
import { userMeView, UserProfileService } from '../user';
import { WorkspaceService } from '../workspace';
import type { SignInResult } from './account.service';
import { AuthFlowService } from './auth-flow.service';
import { DirectorySignIn } from './directory-sign-in';
import { LdapLookup, LdapUnavailableError, lookupLdapUser } from './ldap-client';
import { type ClientInfo, SessionService } from './session.service';
import { recordSignInFailure } from './sign-in-audit';
import { applySsoGroupRoles } from './sso-roles';
import type { ResolvedSsoConnection } from './sso-connection.service';

/** Seconds a client is asked to wait (`Retry-After`) when the directory cannot be asked. */
export const LDAP_RETRY_AFTER_SECONDS = 30;

/**
 * LDAP sign-in behind Plane's password form (docs/sso-ldap.md), with `ldapts`: for an email of an
 * LDAP connection's domain, the directory is searched as the service account for the user's entry
 * (the connection's filter, the email escaped), then bound as that entry with the password typed,
 * over LDAPS or StartTLS. The account is the directory's email (when it is of the connection's
 * domains, else the typed one): found, or created just-in-time, or refused (invitation only); the
 * connection's group → workspace role mappings are applied at each sign-in. Same session as any
 * sign-in (medium `ldap`, the audit's `{method: "ldap", connection}`).
 */
@Injectable()
export class LdapService implements DirectorySignIn {
  private readonly logger = new Logger('LDAP');

  constructor(
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly invitations: WorkspaceInvitationService,
    private readonly flows: AuthFlowService,
    private readonly sessions: SessionService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Signs in `email` with `password` through the connection's directory. Null when the directory
   * has no entry for the email and the connection allows passwords (the caller checks the local
   * password then). Refusals, each audited (`auth.sign_in.failed`, method `ldap`): 401
   * `AUTHENTICATION_FAILED_SIGN_IN` (wrong password, no entry, several entries, empty password;
   * the same answer for all), 403 `USER_ACCOUNT_DEACTIVATED`, 403 `SSO_INVITATION_REQUIRED`, 404
   * `SSO_NOT_CONFIGURED` (the service password can no longer be read: `SECRET_KEY` changed), 503
   * `LDAP_UNAVAILABLE` with `Retry-After` when the directory cannot be asked (down, timeout, TLS,
   * the service bind refused): nothing else is locked or counted then.
   */
  async signIn(
    connection: ResolvedSsoConnection,
    email: string,
    password: string,
    client: ClientInfo,
  ): Promise<SignInResult | null> {
    const medium = `ldap:${connection.id}`;
    const refuse = async (
      code:
        | 'AUTHENTICATION_FAILED_SIGN_IN'
        | 'USER_ACCOUNT_DEACTIVATED'
        | 'SSO_INVITATION_REQUIRED'
        | 'SSO_NOT_CONFIGURED'
        | 'LDAP_UNAVAILABLE',
    ) => {
      const known = await this.users.userByEmail(email);
      await recordSignInFailure(this.dataSource, medium, client, email, code, known);
      return code === 'LDAP_UNAVAILABLE'
        ? new MeridianError(code, undefined, {}, LDAP_RETRY_AFTER_SECONDS)
        : new MeridianError(code);
    };
    const ldap = connection.ldap;
    if (!ldap?.bindPassword) throw await refuse('SSO_NOT_CONFIGURED');
    // an empty password would be an unauthenticated bind, which directories answer with success
    if (!password) throw await refuse('AUTHENTICATION_FAILED_SIGN_IN');
    let found: LdapLookup;
    try {
      found = await lookupLdapUser(ldap.settings, ldap.bindPassword, email, password);
    } catch (err) {
      if (!(err instanceof LdapUnavailableError)) throw err;
      this.logger.warn({ connection: connection.id, err: err.message }, 'LDAP directory unavailable');
      throw await refuse('LDAP_UNAVAILABLE');
    }
    if (found.outcome === 'no-entry' && connection.allowPassword) return null;
    if (found.outcome === 'ambiguous')
      this.logger.warn({ connection: connection.id }, 'LDAP user filter matched several entries; sign-in refused');
    if (found.outcome !== 'ok') throw await refuse('AUTHENTICATION_FAILED_SIGN_IN');
    const directoryEmail = found.user.email?.trim().toLowerCase();
    const directoryDomain = directoryEmail?.slice(directoryEmail.lastIndexOf('@') + 1);
    const accountEmail =
      directoryEmail && directoryDomain && connection.domains.includes(directoryDomain) ? directoryEmail : email;
    let user = await this.users.userByEmail(accountEmail);
    if (user && !user.isActive) throw await refuse('USER_ACCOUNT_DEACTIVATED');
    if (!user && !connection.jitProvisioning && !(await this.invitations.hasPendingFor(accountEmail))) {
      throw await refuse('SSO_INVITATION_REQUIRED');
    }
    const { firstName, lastName } = found.user;
    const displayName = found.user.displayName || [firstName, lastName].filter(Boolean).join(' ') || null;
    user = await this.flows.findOrCreateVerified(accountEmail, { displayName, firstName, lastName }, undefined, 'sso');
    const groups = new Set(found.user.groups.map((g) => g.toLowerCase()));
    const roles = new Map<string, number>();
    for (const m of connection.groupRoleMappings) {
      if (groups.has(m.group.toLowerCase()))
        roles.set(m.workspace_slug, Math.max(roles.get(m.workspace_slug) ?? 0, m.role));
    }
    await applySsoGroupRoles(this.dataSource, this.workspaces, connection.id, user, roles, client);
    const tokens = await this.sessions.open(user, 'ldap', { ...client, connection: connection.id });
    return { ...tokens, user: userMeView(user) };
  }
}
