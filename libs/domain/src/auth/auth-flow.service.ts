import { APP_CONFIG, AppConfig, AuditActor, MeridianError, Principal, randomToken, sha256 } from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isEmail } from 'class-validator';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { InstanceService } from '../instance';
import { MailService } from '../mail';
import { auditActorById, recordAudit } from '../kernel/audit';
import { isUniqueViolation } from '../kernel/db-errors';
import { User, userMeView, UserProfileService } from '../user';
import { normaliseEmail, SignInResult } from './account.service';
import { AuthCodeKind } from './auth-code.entity';
import { hashPassword, verifyPassword } from '../kernel/password';
import { ClientInfo, SessionService } from './session.service';
import { recordSignInFailure, signInActor } from './sign-in-audit';
import { AuthRepository } from './auth.repository';
import { SsoConnectionService } from './sso-connection.service';

/** Lifetimes of the one-time secrets, in seconds (issue 3: 10 minutes, 1 hour). */
export const MAGIC_CODE_TTL = 600;
export const MAGIC_CODE_MAX_TRIES = 5;
export const PASSWORD_RESET_TTL = 3600;

/** `xxxx-xxxx-xxxx` of random lower-case letters, Plane's magic code format (≈ 56 bits). */
function magicCode(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const part = () => Array.from({ length: 4 }, () => letters[randomInt(26)]).join('');
  return `${part()}-${part()}-${part()}`;
}

function magicDigest(email: string, code: string): string {
  return sha256(`magic:${email}:${code.trim().toLowerCase()}`);
}

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Validates and normalises an email for the email-only routes: 422 `INVALID_EMAIL` when malformed. */
export function checkedEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (!isEmail(normalised) || normalised.length > 255) {
    throw new MeridianError('INVALID_EMAIL', undefined, { errors: { email: ['Enter a valid email address.'] } });
  }
  return normalised;
}

/**
 * The passwordless and password-management flows of `/auth/` (Plane's
 * `plane/authentication/views/` and `provider/`), with JSON answers and Bearer tokens: email check,
 * magic code, forgot/reset/change/set password.
 * Every secret (code, token) is stored only as a SHA-256 digest and is single use.
 */
@Injectable()
export class AuthFlowService {
  private readonly logger = new Logger('AuthFlow');
  private lastPurge = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly mail: MailService,
    private readonly instance: InstanceService,
    private readonly auth: AuthRepository,
    private readonly users: UserProfileService,
    private readonly sso: SsoConnectionService,
  ) {}

  /**
   * Which method the email can use, as Plane's `email-check` (`plane/authentication/views/app/check.py`):
   * `{existing, status}` where status is `MAGIC_CODE` when a code can be mailed (SMTP configured,
   * `EMAIL_HOST`, and `ENABLE_MAGIC_LINK_LOGIN` on) and the account has no password yet (or does not
   * exist), `CREDENTIAL` otherwise: without mail, Plane's web app asks for a password. Reveals whether
   * an account exists, as Plane does, and nothing more. An email of an enabled SSO connection's
   * domain is always `{existing: true, status: "CREDENTIAL"}`: the app's password form, whose post
   * goes to the identity provider (docs/sso-oidc.md).
   */
  async emailCheck(rawEmail: string): Promise<{ existing: boolean; status: 'MAGIC_CODE' | 'CREDENTIAL' }> {
    const email = checkedEmail(rawEmail);
    // an SSO domain: the password form, whose post goes to the identity provider (docs/sso-oidc.md);
    // `existing` true whatever the account, so the app shows its one-field sign-in form
    if (await this.sso.forEmail(email)) return { existing: true, status: 'CREDENTIAL' };
    const user = await this.users.userByEmail(email);
    const magic = !user?.passwordHash && (await this.instance.magicCodeOffered());
    return { existing: !!user, status: magic ? 'MAGIC_CODE' : 'CREDENTIAL' };
  }

  /**
   * Emails a magic code valid 10 minutes (replacing any earlier one for the email). Answers
   * `{key: "magic_<email>"}` as Plane, whether or not an account exists. 400
   * `SMTP_NOT_CONFIGURED` in production without SMTP (Plane's `MagicCodeProvider`: 400, 5025), before any code exists.
   */
  async magicGenerate(rawEmail: string): Promise<{ key: string }> {
    const email = checkedEmail(rawEmail);
    await this.instance.assertMagicLoginAllowed();
    await this.assertNotSsoOnly(email);
    await this.mail.assertCanDeliver();
    const code = magicCode();
    await this.purgeExpired();
    await this.dataSource.transaction(async (em) => {
      await this.retire(em, 'magic', { email });
      await this.auth.insertCode(em, {
        kind: 'magic',
        email,
        digest: magicDigest(email, code),
        expiresAt: new Date(Date.now() + MAGIC_CODE_TTL * 1000),
      });
    });
    await this.sendMail({
      to: email,
      subject: `Your unique Meridian login code is ${code}`,
      text: `Your sign-in code is:\n\n${code}\n\nIt is valid for 10 minutes and can be used once. If you did not ask for it, ignore this email.\n`,
    });
    return { key: `magic_${email}` };
  }

  /**
   * Exchanges a magic code for tokens (200, as sign-in), creating the account on first use
   * (no password, email verified). 401 `EXPIRED_MAGIC_CODE` when no live code exists,
   * `INVALID_MAGIC_CODE` for a wrong one (each counts; after 5 the code is dead:
   * `EMAIL_CODE_ATTEMPT_EXHAUSTED`); 403 `USER_ACCOUNT_DEACTIVATED` for a deactivated account.
   */
  async magicSignIn(rawEmail: string, code: string, client: ClientInfo): Promise<SignInResult> {
    const email = normaliseEmail(rawEmail);
    await this.instance.assertMagicLoginAllowed();
    await this.assertNotSsoOnly(email);
    const refuse = async (
      code: 'EXPIRED_MAGIC_CODE' | 'EMAIL_CODE_ATTEMPT_EXHAUSTED' | 'INVALID_MAGIC_CODE' | 'USER_ACCOUNT_DEACTIVATED',
      user: User | null = null,
    ): Promise<never> => {
      await recordSignInFailure(this.dataSource, 'magic-code', client, email, code, user);
      throw new MeridianError(code);
    };
    const row = await this.auth.findLatestLiveMagicCode(email);
    if (!row) return refuse('EXPIRED_MAGIC_CODE');
    if (row.attempts >= MAGIC_CODE_MAX_TRIES) return refuse('EMAIL_CODE_ATTEMPT_EXHAUSTED');
    if (!sameDigest(row.digest, magicDigest(email, code))) {
      await this.auth.countCodeAttempt(row.id);
      return refuse('INVALID_MAGIC_CODE');
    }
    if (!(await this.auth.markMagicCodeUsed(row.id, MAGIC_CODE_MAX_TRIES))) return refuse('EXPIRED_MAGIC_CODE');
    const user = await this.findOrCreateVerified(email, {}, undefined, 'magic-code');
    if (!user.isActive) return refuse('USER_ACCOUNT_DEACTIVATED', user);
    const tokens = await this.sessions.open(user, 'magic-code', client);
    return { ...tokens, user: userMeView(user) };
  }

  /**
   * Finds the account of a verified email, or creates it without a password (magic code, OAuth)
   * when the instance allows sign-up by that medium (`InstanceService.assertSignUpAllowed`).
   * Never touches `is_active`.
   *
   * An existing account whose email was never verified is taken over by the verified owner of the
   * address: its password is cleared and its sessions are revoked, so whoever registered someone
   * else's address with a password before them loses access (account pre-hijacking; audited as `user.password_changed`, `via: cleared`).
   */
  async findOrCreateVerified(
    email: string,
    profile: {
      displayName?: string | null;
      avatar?: string | null;
      firstName?: string | null;
      lastName?: string | null;
    } = {},
    manager?: EntityManager,
    medium: 'magic-code' | 'oauth' | 'sso' = 'oauth',
  ): Promise<User> {
    const existing = await this.users.userByEmail(email, manager);
    if (existing) {
      if (!existing.isEmailVerified) {
        // a password cleared is a password change (audit `user.password_changed`, `via: cleared`),
        // recorded in the takeover's transaction
        const takeOver = async (tx: EntityManager) => {
          await this.users.updateUser(existing.id, { isEmailVerified: true, passwordHash: null }, tx);
          if (existing.passwordHash === null) return;
          await this.sessions.revokeAllOfUser(existing.id, undefined, tx);
          await recordAudit(tx, {
            event: 'user.password_changed',
            actor: auditActorById(existing.id, existing.email),
            target: { type: 'user', id: existing.id },
            metadata: { via: 'cleared', medium },
          });
        };
        await (manager ? takeOver(manager) : this.dataSource.transaction(takeOver));
        existing.isEmailVerified = true;
        existing.passwordHash = null;
      }
      return existing;
    }
    // an SSO connection decides itself whom it creates (just-in-time or invitation only)
    if (medium === 'sso') {
      if (!(await this.instance.instance()).isSetupDone) throw new MeridianError('INSTANCE_NOT_CONFIGURED');
    } else await this.instance.assertSignUpAllowed(medium);
    try {
      return await this.users.createUser(
        {
          email,
          passwordHash: null,
          displayName: (profile.displayName?.trim() || email.split('@')[0]).slice(0, 255),
          avatar: profile.avatar ?? null,
          ...(profile.firstName ? { firstName: profile.firstName.slice(0, 255) } : {}),
          ...(profile.lastName ? { lastName: profile.lastName.slice(0, 255) } : {}),
          isActive: true,
          isEmailVerified: true,
        },
        manager,
      );
    } catch (err) {
      // created meanwhile by a concurrent sign-up
      if (!manager && isUniqueViolation(err, 'uq_users_email')) return this.users.userByEmailOrFail(email);
      throw err;
    }
  }

  /**
   * Emails a single-use password reset token valid 1 hour to an active account with that email
   * (earlier tokens stop working). Always answers the same, so it does not tell whether the
   * account exists. The link is `WEB_URL/accounts/reset-password/?token=…&uidb64=…&email=…`. 400
   * `SMTP_NOT_CONFIGURED` in production without SMTP (Plane's `ForgotPasswordEndpoint`: 400), for every email alike.
   */
  async forgotPassword(rawEmail: string): Promise<{ message: string }> {
    const email = checkedEmail(rawEmail);
    // before the lookup, so the answer never depends on whether the account exists
    await this.mail.assertCanDeliver();
    const user = await this.users.userByEmail(email);
    if (user?.isActive) {
      const token = randomToken(32);
      await this.dataSource.transaction(async (em) => {
        await this.retire(em, 'password_reset', { userId: user.id });
        await this.auth.insertCode(em, {
          kind: 'password_reset',
          email,
          userId: user.id,
          digest: sha256(token),
          expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL * 1000),
        });
      });
      // the web app's reset page reads uidb64, token and email (Plane `plane/authentication/views/app/password_management.py`)
      const params = new URLSearchParams({ token, uidb64: Buffer.from(user.id).toString('base64url'), email });
      const link = `${this.config.webUrl}/accounts/reset-password/?${params.toString()}`;
      await this.sendMail({
        to: email,
        subject: 'Reset your Meridian password',
        text: `Someone asked to reset the password of your Meridian account.\n\nReset token:\n${token}\n\nOr open:\n${link}\n\nThe token is valid for 1 hour and can be used once. If you did not ask for it, ignore this email.\n`,
      });
    }
    return { message: 'Check your email to reset your password' };
  }

  /**
   * Sets a new password with a reset token and signs the user out everywhere (every session
   * revoked). 400 `INVALID_PASSWORD_TOKEN` (unknown or used), `EXPIRED_PASSWORD_TOKEN` (over 1 hour);
   * 403 `USER_ACCOUNT_DEACTIVATED`.
   */
  async resetPassword(token: string, password: string, client: ClientInfo = {}): Promise<{ message: string }> {
    const row = await this.auth.findCodeByDigest(sha256(token), 'password_reset');
    if (!row || row.usedAt || !row.userId) throw new MeridianError('INVALID_PASSWORD_TOKEN');
    if (row.expiresAt.getTime() <= Date.now()) throw new MeridianError('EXPIRED_PASSWORD_TOKEN');
    const user = await this.users.userById(row.userId);
    if (!user) throw new MeridianError('INVALID_PASSWORD_TOKEN');
    if (!user.isActive) throw new MeridianError('USER_ACCOUNT_DEACTIVATED');
    const passwordHash = await hashPassword(password);
    await this.dataSource.transaction(async (em) => {
      const used = await this.auth.markCodeUsed(em, row.id);
      if (!used) throw new MeridianError('INVALID_PASSWORD_TOKEN');
      await this.users.updateUser(user.id, { passwordHash, isEmailVerified: true }, em);
      await this.retire(em, 'password_reset', { userId: user.id });
      await this.sessions.revokeAllOfUser(user.id, undefined, em);
      await recordAudit(em, {
        event: 'user.password_changed',
        actor: signInActor(client, user),
        target: { type: 'user', id: user.id },
        metadata: { via: 'reset' },
      });
    });
    return { message: 'Password reset successfully. Sign in with the new password.' };
  }

  /**
   * Changes the signed-in user's password and revokes their other sessions (the calling one
   * stays). 400 `INCORRECT_OLD_PASSWORD` for a wrong old password or an account without one.
   */
  async changePassword(
    principal: Principal,
    oldPassword: string,
    newPassword: string,
    actor: AuditActor = auditActorOfPrincipal(principal),
  ): Promise<{ message: string }> {
    const user = await this.users.userByIdOrFail(principal.userId);
    const ok = await verifyPassword(user.passwordHash, oldPassword);
    if (!ok || !user.passwordHash) throw new MeridianError('INCORRECT_OLD_PASSWORD');
    const passwordHash = await hashPassword(newPassword);
    await this.dataSource.transaction(async (em) => {
      await this.users.updateUser(user.id, { passwordHash }, em);
      await this.sessions.revokeAllOfUser(user.id, principal.sessionId, em);
      await recordAudit(em, {
        event: 'user.password_changed',
        actor,
        target: { type: 'user', id: user.id },
        metadata: { via: 'change' },
      });
    });
    return { message: 'Password updated successfully' };
  }

  /**
   * Sets the first password of an account created by magic code or OAuth; answers the user
   * (`is_password_autoset` false from now on). 400 `PASSWORD_ALREADY_SET` when it has one.
   */
  async setPassword(principal: Principal, password: string, actor: AuditActor = auditActorOfPrincipal(principal)) {
    const user = await this.users.userByIdOrFail(principal.userId);
    if (user.passwordHash) throw new MeridianError('PASSWORD_ALREADY_SET');
    const passwordHash = await hashPassword(password);
    await this.dataSource.transaction(async (em) => {
      if (!(await this.users.setPasswordIfUnset(user.id, passwordHash, em)))
        throw new MeridianError('PASSWORD_ALREADY_SET');
      await recordAudit(em, {
        event: 'user.password_changed',
        actor,
        target: { type: 'user', id: user.id },
        metadata: { via: 'set' },
      });
    });
    return userMeView(await this.users.userByIdOrFail(user.id));
  }

  /** 403 `SSO_REQUIRED` for an email of an SSO connection's domain that allows no other sign-in. */
  private async assertNotSsoOnly(email: string): Promise<void> {
    const connection = await this.sso.forEmail(email);
    if (connection && !connection.allowPassword) throw new MeridianError('SSO_REQUIRED');
  }

  /** Sends a mail; an SMTP failure is a 503 `SERVICE_UNAVAILABLE` (logged without the message). */
  private async sendMail(mail: { to: string; subject: string; text: string }): Promise<void> {
    try {
      await this.mail.send(mail);
    } catch (err) {
      if (err instanceof MeridianError) throw err;
      this.logger.error({ err: (err as Error)?.message }, 'Sending an auth email failed');
      throw new MeridianError('SERVICE_UNAVAILABLE', 'The email could not be sent. Please try again later.');
    }
  }

  /**
   * Deletes codes that expired over a day ago, at most once an hour per process, so the table
   * holds only recent codes. Called when a code is issued.
   */
  private async purgeExpired(): Promise<void> {
    if (Date.now() - this.lastPurge < 3_600_000) return;
    this.lastPurge = Date.now();
    await this.auth.deleteCodesExpiredOverADayAgo();
  }

  /** Ends the live codes of a kind for an email or a user (a new one replaces them). */
  private async retire(em: EntityManager, kind: AuthCodeKind, by: { email?: string; userId?: string }): Promise<void> {
    await this.auth.retireCodes(em, kind, by);
  }
}

/** The audit actor of a principal when the request's address is not at hand (no address, no user agent). */
function auditActorOfPrincipal(principal: Principal): AuditActor {
  return {
    userId: principal.userId,
    email: principal.email,
    apiTokenId: principal.apiToken?.id ?? null,
    ipAddress: null,
    userAgent: null,
  };
}
