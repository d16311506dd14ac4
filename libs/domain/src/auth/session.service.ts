import { APP_CONFIG, AppConfig, AuditActor, MeridianError, Principal, randomToken, sha256 } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { joinAcceptedInvitations } from '../invitation';
import { recordAudit } from '../kernel/audit';
import { iso } from '../kernel/time';
import { User, UserProfileService } from '../user';
import { AuthSession } from './auth-session.entity';
import { AuthRepository } from './auth.repository';
import { LandingRepository } from './landing.repository';
import { signInActor, signInMethod } from './sign-in-audit';

/** What a sign-in returns: both tokens in clear (shown once), their type and the access TTL. */
export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  /** seconds until the access token expires */
  expires_in: number;
}

export interface ClientInfo {
  userAgent?: string | null;
  ipAddress?: string | null;
  /**
   * A browser signing in through Plane's form posts: the session gets one `web` token for the
   * session cookie (living `SESSION_COOKIE_AGE`), returned as `access_token`, and no refresh token
   * (`refresh_token` is empty).
   */
  cookie?: boolean;
  /** the enterprise (SSO) connection signed in through: the audit log's `connection` (docs/audit.md) */
  connection?: string;
}

/**
 * Sessions and their opaque tokens. Tokens are 256-bit random values; the database keeps only
 * their SHA-256 digests. Access tokens live `ACCESS_TOKEN_TTL` seconds (default 1 hour), the
 * session and its refresh token `REFRESH_TOKEN_TTL` (default 30 days).
 */
@Injectable()
export class SessionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly auth: AuthRepository,
    private readonly users: UserProfileService,
    private readonly landing: LandingRepository,
  ) {}

  /** The path (under the web app's base) a browser lands on after signing in (`LandingRepository`). */
  landingPath(userId: string): Promise<string> {
    return this.landing.landingPath(userId);
  }

  /** Opens a session for `user` and issues its first token pair (in the caller's transaction if given). */
  async open(user: User, medium: string, client: ClientInfo, manager?: EntityManager): Promise<IssuedTokens> {
    const run = async (em: EntityManager) => {
      const now = Date.now();
      const session = await this.auth.insertSession(em, {
        userId: user.id,
        medium,
        userAgent: client.userAgent?.slice(0, 512) ?? null,
        ipAddress: client.ipAddress ?? null,
        expiresAt: new Date(
          now +
            (client.cookie ? this.config.webSession.cookieAgeSeconds : this.config.auth.refreshTokenTtlSeconds) * 1000,
        ),
        lastUsedAt: new Date(now),
      });
      await this.users.updateUser(user.id, { lastLoginAt: new Date(now), lastLoginMedium: medium }, em);
      user.lastLoginAt = new Date(now);
      user.lastLoginMedium = medium;
      await joinAcceptedInvitations(em, user.id, user.email);
      await recordAudit(em, {
        event: 'auth.sign_in.succeeded',
        actor: signInActor(client, user),
        target: { type: 'user', id: user.id },
        metadata: {
          ...signInMethod(medium),
          ...(client.connection ? { connection: client.connection } : {}),
          session_id: session.id,
        },
      });
      return client.cookie ? this.issueWeb(em, session) : this.issue(em, session, now);
    };
    return manager ? run(manager) : this.dataSource.transaction(run);
  }

  /** The web session's single token: the cookie's value; it lives as long as the session. */
  private async issueWeb(em: EntityManager, session: AuthSession): Promise<IssuedTokens> {
    const token = randomToken(32);
    await this.auth.insertTokens(em, [
      { sessionId: session.id, kind: 'web', digest: sha256(token), expiresAt: session.expiresAt },
    ]);
    return {
      access_token: token,
      refresh_token: '',
      token_type: 'Bearer',
      expires_in: this.config.webSession.cookieAgeSeconds,
    };
  }

  private async issue(em: EntityManager, session: AuthSession, now: number): Promise<IssuedTokens> {
    const access = randomToken(32);
    const refresh = randomToken(32);
    await this.auth.insertTokens(em, [
      {
        sessionId: session.id,
        kind: 'access',
        digest: sha256(access),
        expiresAt: new Date(now + this.config.auth.accessTokenTtlSeconds * 1000),
      },
      { sessionId: session.id, kind: 'refresh', digest: sha256(refresh), expiresAt: session.expiresAt },
    ]);
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: this.config.auth.accessTokenTtlSeconds,
    };
  }

  /**
   * The principal behind a Bearer access token (`kind` 'access') or a web session cookie ('web'), or
   * null when the token is unknown, of the other kind, expired, its session revoked or expired, or its
   * user deactivated.
   */
  async verifyAccessToken(token: string, kind: 'access' | 'web' = 'access'): Promise<Principal | null> {
    const row = await this.auth.findLiveAccessToken(sha256(token), kind);
    if (!row) return null;
    await this.touch(row.session_id, row.last_used_at);
    return {
      userId: row.user_id,
      email: row.email,
      via: 'session',
      sessionId: row.session_id,
      expiresAt: new Date(row.expires_at).getTime(),
    };
  }

  /** Keeps `last_used_at` to the minute without a write on every request. */
  private async touch(sessionId: string, lastUsedAt: Date | string | null): Promise<void> {
    const last = lastUsedAt ? new Date(lastUsedAt).getTime() : 0;
    if (Date.now() - last < 60_000) return;
    await this.auth.touchSession(sessionId);
  }

  /**
   * Rotates a refresh token: marks it used, ends the session's current access token and issues a
   * new pair. A refresh token is single use; presenting one that was already rotated is taken as a
   * theft and revokes the whole session at once. 401 `INVALID_REFRESH_TOKEN` for an unknown, expired
   * or reused token, a revoked or expired session, or a deactivated user.
   */
  async refresh(refreshToken: string): Promise<IssuedTokens> {
    const token = await this.auth.findTokenByDigest(sha256(refreshToken), 'refresh');
    if (!token) throw new MeridianError('INVALID_REFRESH_TOKEN');
    const session = await this.auth.findSession(token.sessionId);
    const user = session ? await this.users.userById(session.userId) : null;
    const now = Date.now();
    if (
      !session ||
      !user ||
      session.revokedAt ||
      session.expiresAt.getTime() <= now ||
      token.expiresAt.getTime() <= now ||
      !user.isActive
    ) {
      throw new MeridianError('INVALID_REFRESH_TOKEN');
    }
    // single use, also under concurrency: only one caller can flip used_at from NULL
    if (!(await this.auth.markTokenUsed(token.id))) {
      await this.revoke(session.id);
      throw new MeridianError('INVALID_REFRESH_TOKEN');
    }
    return this.dataSource.transaction(async (em) => {
      await this.auth.expireLiveAccessTokens(em, session.id);
      await this.auth.setSessionLastUsed(em, session.id, new Date(now));
      return this.issue(em, session, now);
    });
  }

  /** Revokes one session: its access and refresh tokens stop working at once. */
  async revoke(sessionId: string, manager?: EntityManager): Promise<void> {
    await this.auth.revokeSession(manager ?? this.auth.manager, sessionId);
  }

  /**
   * Signs the caller out: revokes its session (as `revoke`) and records `auth.sign_out` in the same
   * transaction. A session already revoked records nothing.
   */
  async signOut(sessionId: string, actor: AuditActor): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      if (!(await this.auth.revokeSession(em, sessionId))) return;
      await recordAudit(em, {
        event: 'auth.sign_out',
        actor,
        target: { type: 'user', id: actor.userId },
        metadata: { session_id: sessionId },
      });
    });
  }

  /**
   * Ends several sessions at once (an identity provider's single logout): each revoked and its
   * `auth.sign_out` recorded, with `metadata` besides `session_id`, all in one transaction. Answers
   * how many were still live.
   */
  async signOutMany(
    entries: Array<{ sessionId: string; actor: AuditActor }>,
    metadata: Record<string, unknown>,
  ): Promise<number> {
    if (entries.length === 0) return 0;
    return this.dataSource.transaction(async (em) => {
      let ended = 0;
      for (const { sessionId, actor } of entries) {
        if (!(await this.auth.revokeIfLive(em, sessionId))) continue;
        ended += 1;
        await recordAudit(em, {
          event: 'auth.sign_out',
          actor,
          target: { type: 'user', id: actor.userId },
          metadata: { session_id: sessionId, ...metadata },
        });
      }
      return ended;
    });
  }

  /** Revokes every live session of a user, except `keepSessionId` when given. */
  async revokeAllOfUser(userId: string, keepSessionId?: string, manager?: EntityManager): Promise<void> {
    await this.auth.revokeSessionsOfUser(manager ?? this.auth.manager, userId, keepSessionId);
  }

  /**
   * The user's live sessions (not revoked, not expired), newest first:
   * `[{id, medium, user_agent, ip_address, created_at, last_used_at, expires_at, is_current}]`.
   */
  async list(userId: string, currentSessionId?: string) {
    const rows = await this.auth.listLiveSessions(userId);
    return rows.map((s) => ({
      id: s.id,
      medium: s.medium,
      user_agent: s.userAgent,
      ip_address: s.ipAddress,
      created_at: iso(s.createdAt),
      last_used_at: iso(s.lastUsedAt),
      expires_at: iso(s.expiresAt),
      is_current: s.id === currentSessionId,
    }));
  }

  /** Ends one of the user's own live sessions; another user's or an unknown id is a 404 `NOT_FOUND`. */
  async revokeOwn(userId: string, sessionId: string): Promise<void> {
    if (!(await this.auth.revokeOwnLiveSession(userId, sessionId)))
      throw new MeridianError('NOT_FOUND', 'Session not found.');
  }
}
