import {
  APP_CONFIG,
  AppConfig,
  ErrorCode,
  MeridianError,
  OAuthProviderConfig,
  OAuthProviderName,
  randomToken,
} from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { Passport, Strategy } from 'passport';
// the provider strategies are loaded on first use (start-up time): see strategy()
import type * as GitHub from 'passport-github2';
import type * as GitLab from 'passport-gitlab2';
import type * as Google from 'passport-google-oauth20';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../kernel/db-errors';
import { User, userMeView, UserProfileService } from '../user';
import { AccountRepository } from './account.repository';
import { normaliseEmail } from './account.service';
import { InstanceSettings } from '../instance-config';
import { AuthFlowService } from './auth-flow.service';
import type { SignInResult } from './account.service';
import { type ClientInfo, SessionService } from './session.service';
import { recordSignInFailure } from './sign-in-audit';

export const OAUTH_PROVIDERS: readonly OAuthProviderName[] = ['github', 'google', 'gitlab'];

/** What Meridian keeps of a provider's profile. */
export interface OAuthProfile {
  provider: OAuthProviderName;
  id: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  avatar: string | null;
}

const NOT_CONFIGURED: Record<OAuthProviderName, ErrorCode> = {
  github: 'GITHUB_NOT_CONFIGURED',
  google: 'GOOGLE_NOT_CONFIGURED',
  gitlab: 'GITLAB_NOT_CONFIGURED',
};
const PROVIDER_ERROR: Record<OAuthProviderName, ErrorCode> = {
  github: 'GITHUB_OAUTH_PROVIDER_ERROR',
  google: 'GOOGLE_OAUTH_PROVIDER_ERROR',
  gitlab: 'GITLAB_OAUTH_PROVIDER_ERROR',
};
/**
 * Plane's scopes (`plane/authentication/provider/oauth/`); Google through OpenID Connect's userinfo,
 * which carries `email_verified`.
 */
const SCOPES: Record<OAuthProviderName, string[]> = {
  github: ['read:user', 'user:email'],
  google: ['openid', 'email', 'profile'],
  gitlab: ['read_user'],
};

const STATE_COOKIE = 'meridian_oauth_state';
/** The `next_path` of an OAuth start (`?next_path=`), until its callback. */
const NEXT_COOKIE = 'meridian_oauth_next';

/** Which app an OAuth flow signs in to: the web app, or the published boards' app (`/auth/spaces/…`). */
export type OAuthSite = 'app' | 'space';
const STATE_TTL_SECONDS = 600;

interface RawProfile {
  id?: string | number;
  displayName?: string;
  username?: string;
  emails?: { value?: string; verified?: boolean | string; primary?: boolean }[];
  photos?: { value?: string }[];
  avatarUrl?: string;
}

function truthy(v: unknown): boolean {
  return v === true || v === 'true';
}

/** Picks the email to match accounts by: GitHub's primary verified one; Google's if verified; GitLab's primary (confirmed by GitLab). */
function toProfile(provider: OAuthProviderName, raw: RawProfile): OAuthProfile {
  const emails = (raw.emails ?? []).filter((e) => typeof e.value === 'string' && e.value !== '');
  let chosen: { value?: string } | undefined;
  let verified = false;
  if (provider === 'github') {
    chosen = emails.find((e) => e.primary && truthy(e.verified)) ?? emails.find((e) => truthy(e.verified));
    verified = !!chosen;
  } else if (provider === 'google') {
    chosen = emails[0];
    verified = !!chosen && truthy(emails[0].verified);
  } else {
    chosen = emails[0];
    verified = !!chosen;
  }
  return {
    provider,
    id: String(raw.id ?? ''),
    email: chosen?.value ? normaliseEmail(chosen.value) : null,
    emailVerified: verified,
    displayName: raw.displayName || raw.username || null,
    avatar: raw.photos?.[0]?.value ?? raw.avatarUrl ?? null,
  };
}

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

function sameString(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * OAuth sign-in with GitHub, Google and GitLab through passport strategies (passport-github2,
 * passport-google-oauth20, passport-gitlab2). A provider is enabled when the instance configuration
 * (database over environment) has its client id and secret and its `IS_<PROVIDER>_ENABLED` flag is
 * not "0"; its endpoints come from the environment, so they can be pointed elsewhere (GitHub
 * Enterprise, a self-managed GitLab, a test provider).
 *
 * Instead of Plane's server-side session, the `state` and `next_path` are bound to the browser by
 * short-lived HttpOnly cookies (`meridian_oauth_state`, `meridian_oauth_next`; 10 minutes, path
 * /auth/), checked on the callback. The callback opens the same web session as the password form;
 * the controllers set its cookie and redirect (docs/oauth.md).
 */
@Injectable()
export class OAuthService {
  private readonly logger = new Logger('OAuth');
  private readonly passport = new Passport();
  /** the settings each provider's registered strategy was built from, to rebuild it when they change */
  private readonly registered = new Map<OAuthProviderName, string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: AccountRepository,
    private readonly users: UserProfileService,
    private readonly flows: AuthFlowService,
    private readonly sessions: SessionService,
    private readonly instanceSettings: InstanceSettings,
  ) {}

  /**
   * The provider's application, read from the instance configuration on every request (so an
   * admin's change applies at once), with its endpoints. 404 `<PROVIDER>_NOT_CONFIGURED` when the
   * provider is off or its id or secret is unset.
   */
  private async settings(provider: OAuthProviderName): Promise<OAuthProviderConfig> {
    const credentials = await this.instanceSettings.providerCredentials(provider);
    if (!credentials) throw new MeridianError(NOT_CONFIGURED[provider]);
    const endpoints = this.config.oauthEndpoints[provider];
    const host = credentials.host ?? 'https://gitlab.com';
    const settings: OAuthProviderConfig = {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      authorizeUrl: endpoints.authorizeUrl ?? `${host}/oauth/authorize`,
      tokenUrl: endpoints.tokenUrl ?? `${host}/oauth/token`,
      userInfoUrl: endpoints.userInfoUrl ?? `${host}/api/v4/user`,
      emailsUrl: endpoints.emailsUrl,
    };
    const fingerprint = JSON.stringify(settings);
    if (this.registered.get(provider) !== fingerprint) {
      this.passport.use(provider, this.strategy(provider, settings));
      this.registered.set(provider, fingerprint);
    }
    return settings;
  }

  private strategy(provider: OAuthProviderName, s: OAuthProviderConfig): Strategy {
    const verify = (_at: string, _rt: string, profile: unknown, done: (err: unknown, user?: unknown) => void) =>
      done(null, toProfile(provider, profile as RawProfile));
    const base = {
      clientID: s.clientId,
      clientSecret: s.clientSecret,
      authorizationURL: s.authorizeUrl,
      tokenURL: s.tokenUrl,
    };
    switch (provider) {
      case 'github': {
        const { Strategy: GitHubStrategy } = require('passport-github2') as typeof GitHub;
        return new GitHubStrategy(
          {
            ...base,
            callbackURL: '',
            userProfileURL: s.userInfoUrl,
            userEmailURL: s.emailsUrl,
            allRawEmails: true,
            scope: SCOPES.github,
          } as never,
          verify,
        ) as unknown as Strategy;
      }
      case 'google': {
        const { Strategy: GoogleStrategy } = require('passport-google-oauth20') as typeof Google;
        return new GoogleStrategy(
          { ...base, callbackURL: '', userProfileURL: s.userInfoUrl, scope: SCOPES.google } as never,
          verify as never,
        ) as unknown as Strategy;
      }
      case 'gitlab': {
        const { Strategy: GitLabStrategy } = require('passport-gitlab2') as typeof GitLab;
        return new GitLabStrategy(
          { ...base, callbackURL: '', profileURL: s.userInfoUrl, scope: SCOPES.gitlab },
          verify,
        ) as unknown as Strategy;
      }
    }
  }

  /**
   * The `redirect_uri` given to the provider: this server's callback route on `API_BASE_URL` (Plane
   * builds it from the request's host; a forged `Host` must not choose it).
   */
  private callbackUrl(provider: OAuthProviderName, site: OAuthSite = 'app'): string {
    return `${this.config.apiBaseUrl}/auth/${site === 'space' ? 'spaces/' : ''}${provider}/callback/`;
  }

  /**
   * `GET /auth/{provider}/` (and `/auth/spaces/{provider}/`, `site` `space`): sets the state cookie
   * and the `next_path` cookie (Plane keeps both in its session) and redirects (302) to the
   * provider's authorize URL. Throws `<PROVIDER>_NOT_CONFIGURED` before answering.
   */
  async begin(
    provider: OAuthProviderName,
    req: Request,
    res: Response,
    site: OAuthSite = 'app',
    nextPath?: string,
  ): Promise<void> {
    await this.settings(provider);
    const state = randomToken(24);
    const secure = req.secure ? '; Secure' : '';
    res.append(
      'Set-Cookie',
      `${STATE_COOKIE}=${state}; Max-Age=${STATE_TTL_SECONDS}; Path=/auth/; HttpOnly; SameSite=Lax${secure}`,
    );
    res.append(
      'Set-Cookie',
      `${NEXT_COOKIE}=${encodeURIComponent(nextPath ?? '')}; Max-Age=${STATE_TTL_SECONDS}; Path=/auth/; HttpOnly; SameSite=Lax${secure}`,
    );
    await new Promise<void>((resolve, reject) => {
      res.once('finish', () => resolve());
      this.passport.authenticate(
        provider,
        { session: false, state, callbackURL: this.callbackUrl(provider, site), scope: SCOPES[provider] } as never,
        (err: unknown) => reject(err ?? new Error('OAuth start did not redirect')),
      )(req, res, (err?: unknown) => reject(err ?? new Error('OAuth start did not redirect')));
    });
  }

  /**
   * `GET /auth/[spaces/]{provider}/callback/` (Plane `views/app/{google,github,gitlab}.py`,
   * `views/space/*.py`): checks the state against the cookie, lets the strategy exchange the code
   * and read the profile, signs the user in (matched by provider account, then by verified email;
   * created when new and sign-up is allowed) and opens a web session (`client.cookie`). Returns the
   * session, for the caller to set the cookie; throws a `MeridianError` (the provider's
   * `<PROVIDER>_OAUTH_PROVIDER_ERROR` for a state mismatch, a missing code or a provider failure;
   * `<PROVIDER>_NOT_CONFIGURED`, `INVALID_EMAIL`, `SIGNUP_DISABLED`, `USER_ACCOUNT_DEACTIVATED`, …)
   * for the caller to redirect with. The state and `next_path` cookies are deleted either way.
   */
  async finish(
    provider: OAuthProviderName,
    req: Request,
    res: Response,
    site: OAuthSite,
    client: ClientInfo,
  ): Promise<SignInResult> {
    res.append('Set-Cookie', `${STATE_COOKIE}=; Max-Age=0; Path=/auth/; HttpOnly; SameSite=Lax`);
    res.append('Set-Cookie', `${NEXT_COOKIE}=; Max-Age=0; Path=/auth/; HttpOnly; SameSite=Lax`);
    await this.settings(provider);
    let user: User;
    try {
      user = await this.authenticate(provider, req, res, site);
    } catch (err) {
      const refusal = err instanceof MeridianError ? err : new MeridianError(PROVIDER_ERROR[provider]);
      if (!(err instanceof MeridianError))
        this.logger.warn({ provider, err: (err as Error)?.message }, 'OAuth callback failed');
      await recordSignInFailure(this.dataSource, provider, client, null, refusal.code);
      throw refusal;
    }
    const tokens = await this.sessions.open(user, provider, { ...client, cookie: true });
    return { ...tokens, user: userMeView(user) };
  }

  /** The `next_path` the start kept (unchecked: the caller checks it is a path). */
  nextPath(req: Request): string | undefined {
    const raw = readCookie(req, NEXT_COOKIE);
    if (!raw) return undefined;
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }

  /** The state check, the code exchange and the profile, then `signIn`: the user, or a throw. */
  private async authenticate(provider: OAuthProviderName, req: Request, res: Response, site: OAuthSite): Promise<User> {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const expected = readCookie(req, STATE_COOKIE) ?? '';
    if (!state || !expected || !sameString(state, expected))
      throw new MeridianError(PROVIDER_ERROR[provider], 'The OAuth state does not match.');
    if (typeof req.query.code !== 'string' || req.query.code === '') throw new MeridianError(PROVIDER_ERROR[provider]);
    const profile = await new Promise<OAuthProfile | false>((resolve, reject) => {
      this.passport.authenticate(
        provider,
        { session: false, callbackURL: this.callbackUrl(provider, site) } as never,
        (err: unknown, user: OAuthProfile | false) => (err ? reject(err) : resolve(user)),
      )(req, res, (err?: unknown) => reject(err ?? new Error('OAuth callback did not finish')));
    });
    if (!profile || !profile.id) throw new MeridianError(PROVIDER_ERROR[provider]);
    return this.signIn(profile);
  }

  /**
   * The user behind a provider profile: the linked account, else the account with the same
   * verified email (then linked), else a new account without password (email verified).
   * 422 `INVALID_EMAIL` when the provider gives no verified email; 403 `USER_ACCOUNT_DEACTIVATED`.
   */
  async signIn(profile: OAuthProfile): Promise<User> {
    const linked = await this.accounts.linkOf(profile.provider, profile.id);
    let user = linked ? await this.users.userById(linked.userId) : null;
    if (!user) {
      if (!profile.email || !profile.emailVerified) {
        throw new MeridianError('INVALID_EMAIL', 'The provider did not give a verified email address.');
      }
      const existing = await this.users.userByEmail(profile.email);
      if (existing && !existing.isActive) throw new MeridianError('USER_ACCOUNT_DEACTIVATED');
      user = await this.flows.findOrCreateVerified(
        profile.email,
        { displayName: profile.displayName, avatar: profile.avatar },
        undefined,
        'oauth',
      );
      try {
        await this.accounts.insertLink(user.id, profile.provider, profile.id);
      } catch (err) {
        if (!isUniqueViolation(err, 'uq_user_accounts_provider_account')) throw err;
      }
    } else {
      await this.accounts.stampLink(linked!.id);
    }
    if (!user.isActive) throw new MeridianError('USER_ACCOUNT_DEACTIVATED');
    if (!user.isEmailVerified && profile.emailVerified && profile.email === user.email) {
      await this.users.updateUser(user.id, { isEmailVerified: true });
    }
    return user;
  }
}
