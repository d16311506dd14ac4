import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InstanceService } from '../instance';
import { isUniqueViolation } from '../kernel/db-errors';
import { userMeView, UserProfileService } from '../user';
import { hashPassword, verifyPassword } from '../kernel/password';
import { ClientInfo, IssuedTokens, SessionService } from './session.service';
import { DirectorySignIn } from './directory-sign-in';
import { recordSignInFailure } from './sign-in-audit';
import { SsoConnectionService } from './sso-connection.service';

export interface Credentials {
  email: string;
  password: string;
}

export type SignInResult = IssuedTokens & { user: ReturnType<typeof userMeView> };

/**
 * Email and password accounts: sign-up and sign-in (Plane `plane/authentication/views/app/email.py`,
 * `plane/authentication/provider/credentials/email.py`).
 */
@Injectable()
export class AccountService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserProfileService,
    private readonly sessions: SessionService,
    private readonly instance: InstanceService,
    private readonly sso: SsoConnectionService,
    private readonly directory: DirectorySignIn,
  ) {}

  /**
   * 403 `SSO_REQUIRED` when the email's domain belongs to an enabled SSO connection that does not
   * allow password sign-in (docs/sso-oidc.md): such accounts sign in only through the provider.
   */
  async assertPasswordAllowedFor(email: string): Promise<void> {
    const connection = await this.sso.forEmail(email);
    if (connection && !connection.allowPassword) throw new MeridianError('SSO_REQUIRED');
  }

  /**
   * Creates the account and signs it in. A taken email is a 409 `USER_ALREADY_EXIST`. Refused with
   * 403 `INSTANCE_NOT_CONFIGURED` before the instance's first set-up, `EMAIL_PASSWORD_AUTHENTICATION_DISABLED`
   * or `SIGNUP_DISABLED` when the instance configuration says so (`InstanceService.assertSignUpAllowed`).
   */
  async signUp(input: Credentials, client: ClientInfo): Promise<SignInResult> {
    await this.instance.assertSignUpAllowed('email');
    const email = normaliseEmail(input.email);
    await this.assertPasswordAllowedFor(email);
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.dataSource.transaction(async (em) => {
        const user = await this.users.createUser(
          { email, passwordHash, displayName: defaultDisplayName(email), isActive: true },
          em,
        );
        const tokens = await this.sessions.open(user, 'email', client, em);
        return { ...tokens, user: userMeView(user) };
      });
    } catch (err) {
      if (isUniqueViolation(err, 'uq_users_email')) throw new MeridianError('USER_ALREADY_EXIST');
      throw err;
    }
  }

  /**
   * Signs in with email and password. An unknown email and a wrong password get the same 401
   * `AUTHENTICATION_FAILED_SIGN_IN`, in the same time. A deactivated account is never reactivated
   * (Plane silently does): with the right password it gets 403 `USER_ACCOUNT_DEACTIVATED`. 403
   * `EMAIL_PASSWORD_AUTHENTICATION_DISABLED` while `ENABLE_EMAIL_PASSWORD` is "0". An email of an
   * LDAP connection's domain is checked against the directory instead (`LdapService.signIn`, its
   * answers; docs/sso-ldap.md), and against the local password only when the directory has no
   * entry for it and the connection allows passwords.
   */
  async signIn(input: Credentials, client: ClientInfo): Promise<SignInResult> {
    const email = normaliseEmail(input.email);
    const connection = await this.sso.forEmail(email);
    if (connection?.kind === 'ldap') {
      const viaDirectory = await this.directory.signIn(connection, email, input.password, client);
      if (viaDirectory) return viaDirectory;
    }
    await this.instance.assertPasswordLoginAllowed();
    await this.assertPasswordAllowedFor(email);
    const user = await this.users.userByEmail(email);
    const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
    const refusal = !user || !ok ? 'AUTHENTICATION_FAILED_SIGN_IN' : !user.isActive ? 'USER_ACCOUNT_DEACTIVATED' : null;
    if (!user || refusal) {
      await recordSignInFailure(
        this.dataSource,
        'email',
        client,
        email,
        refusal ?? 'AUTHENTICATION_FAILED_SIGN_IN',
        user,
      );
      throw new MeridianError(refusal ?? 'AUTHENTICATION_FAILED_SIGN_IN');
    }
    const tokens = await this.sessions.open(user, 'email', client);
    return { ...tokens, user: userMeView(user) };
  }
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

function defaultDisplayName(email: string): string {
  return email.split('@')[0].slice(0, 255);
}
