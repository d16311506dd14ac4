import { APP_CONFIG, AppConfig, Principal, randomToken, sha256 } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { joinAcceptedInvitations } from '../invitation/workspace-invitation.service';
import { User } from '../user/user.entity';
import { AuthSession } from './auth-session.entity';
import { AuthToken } from './auth-token.entity';

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
  ) {}

  /** Opens a session for `user` and issues its first token pair (in the caller's transaction if given). */
  async open(user: User, medium: string, client: ClientInfo, manager?: EntityManager): Promise<IssuedTokens> {
    const run = async (em: EntityManager) => {
      const now = Date.now();
      const session = await em.save(
        em.create(AuthSession, {
          userId: user.id,
          medium,
          userAgent: client.userAgent?.slice(0, 512) ?? null,
          ipAddress: client.ipAddress ?? null,
          expiresAt: new Date(now + this.config.auth.refreshTokenTtlSeconds * 1000),
          lastUsedAt: new Date(now),
        }),
      );
      await em.update(User, { id: user.id }, { lastLoginAt: new Date(now), lastLoginMedium: medium });
      await joinAcceptedInvitations(em, user.id, user.email);
      return this.issue(em, session, now);
    };
    return manager ? run(manager) : this.dataSource.transaction(run);
  }

  private async issue(em: EntityManager, session: AuthSession, now: number): Promise<IssuedTokens> {
    const access = randomToken(32);
    const refresh = randomToken(32);
    await em.insert(AuthToken, [
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
   * The principal behind a Bearer access token, or null when the token is unknown, expired,
   * its session revoked or expired, or its user deactivated.
   */
  async verifyAccessToken(token: string): Promise<Principal | null> {
    const row = await this.dataSource
      .createQueryBuilder(AuthToken, 't')
      .innerJoin(AuthSession, 's', 's.id = t.sessionId')
      .innerJoin(User, 'u', 'u.id = s.userId')
      .select('s.id', 'session_id')
      .addSelect('u.id', 'user_id')
      .addSelect('u.email', 'email')
      .where('t.digest = :digest', { digest: sha256(token) })
      .andWhere("t.kind = 'access'")
      .andWhere('t.expiresAt > now()')
      .andWhere('s.revokedAt IS NULL')
      .andWhere('s.expiresAt > now()')
      .andWhere('u.isActive = true')
      .getRawOne<{ session_id: string; user_id: string; email: string }>();
    if (!row) return null;
    return { userId: row.user_id, email: row.email, via: 'session', sessionId: row.session_id };
  }
}
