import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { hotRead } from '../kernel/hot-query';
import { AuthCode, AuthCodeKind } from './auth-code.entity';
import { AuthSession } from './auth-session.entity';
import { AuthToken } from './auth-token.entity';
import { SQL_LIVE_ACCESS_TOKEN } from './auth.sql';
import { SsoConnection } from './sso-connection.entity';
import { SsoConnectionDomain } from './sso-connection-domain.entity';
import { UserAccount } from './user-account.entity';

/** The row of `findLiveAccessToken`: the session and user behind a live access token. */
export interface LiveAccessTokenRow {
  session_id: string;
  user_id: string;
  email: string;
  last_used_at: Date | string | null;
  /** the earlier of the token's and the session's end */
  expires_at: Date | string;
}

/**
 * The auth feature's SQL on its own tables: sessions and their tokens, one-time codes (magic,
 * password reset, OAuth), SSO connections and their domains, and the link of an SSO identity
 * (`user_accounts`). The users, memberships and invitations a sign-in reads or writes are the user,
 * workspace and invitation rooms' (their doors, called by the services). Methods that take an
 * `EntityManager` run in the caller's transaction.
 */
@Injectable()
export class AuthRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The manager outside any transaction, for the methods that take one. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  // ---- sessions and their tokens ----

  /** Inserts a session and answers the saved row (its id and generated columns read back). */
  insertSession(em: EntityManager, row: Partial<AuthSession>): Promise<AuthSession> {
    return em.save(em.create(AuthSession, row));
  }

  /** Inserts tokens (their digests, never the tokens) of a session. */
  async insertTokens(em: EntityManager, rows: Partial<AuthToken>[]): Promise<void> {
    await em.insert(AuthToken, rows);
  }

  /** The token of `kind` with this SHA-256 digest, live or not, or null. */
  findTokenByDigest(digest: string, kind: AuthToken['kind']): Promise<AuthToken | null> {
    return this.manager.findOneBy(AuthToken, { digest, kind });
  }

  /** The session with this id, revoked and expired ones included, or null. */
  findSession(id: string): Promise<AuthSession | null> {
    return this.manager.findOneBy(AuthSession, { id });
  }

  /** Sets a session's `last_used_at` (through the entity listeners, unlike `touchSession`). */
  async setSessionLastUsed(em: EntityManager, sessionId: string, at: Date): Promise<void> {
    await em.update(AuthSession, { id: sessionId }, { lastUsedAt: at });
  }

  /** Revokes (now) the session unless it already is; false when it was already revoked or is unknown. */
  async revokeSession(em: EntityManager, sessionId: string): Promise<boolean> {
    const done = await em.update(AuthSession, { id: sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return !!done.affected;
  }

  /** Revokes (now) every session of the user not yet revoked, except `keepSessionId` when given. */
  async revokeSessionsOfUser(em: EntityManager, userId: string, keepSessionId?: string): Promise<void> {
    const where = keepSessionId
      ? { userId, revokedAt: IsNull(), id: Not(keepSessionId) }
      : { userId, revokedAt: IsNull() };
    await em.update(AuthSession, where, { revokedAt: new Date() });
  }

  /**
   * The session and user behind the token of `kind` (a Bearer access token, or a web session cookie's
   * token) with this SHA-256 digest, when the token has not expired, its session is neither revoked
   * nor expired and its user is active; undefined otherwise.
   */
  async findLiveAccessToken(
    digest: string,
    kind: 'access' | 'web' = 'access',
  ): Promise<LiveAccessTokenRow | undefined> {
    const [row] = await hotRead(this.dataSource, SQL_LIVE_ACCESS_TOKEN, [digest, kind]);
    return row as LiveAccessTokenRow | undefined;
  }

  /** Sets a session's `last_used_at` to now, without the entity listeners (bookkeeping, not an access change). */
  async touchSession(sessionId: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(AuthSession)
      .set({ lastUsedAt: () => 'now()' })
      .where('id = :id', { id: sessionId })
      .callListeners(false) // bookkeeping, not an access change (AccessChangeSubscriber)
      .execute();
  }

  /** Marks a token used unless it already is (one statement): false when another caller did first. */
  async markTokenUsed(tokenId: string): Promise<boolean> {
    const marked = await this.dataSource
      .createQueryBuilder()
      .update(AuthToken)
      .set({ usedAt: () => 'now()' })
      .where('id = :id AND used_at IS NULL', { id: tokenId })
      .execute();
    return !!marked.affected;
  }

  /** Revokes a session if it is not revoked yet (in the caller's transaction); whether it was. */
  async revokeIfLive(em: EntityManager, sessionId: string): Promise<boolean> {
    const done = await em.update(AuthSession, { id: sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return !!done.affected;
  }

  /** Ends (expires now) the session's access tokens that are still live. */
  async expireLiveAccessTokens(em: EntityManager, sessionId: string): Promise<void> {
    await em
      .createQueryBuilder()
      .update(AuthToken)
      .set({ expiresAt: () => 'now()' })
      .where("session_id = :sid AND kind = 'access' AND expires_at > now()", { sid: sessionId })
      .execute();
  }

  /** The user's live sessions (not revoked, not expired), newest first. */
  listLiveSessions(userId: string): Promise<AuthSession[]> {
    return this.dataSource
      .getRepository(AuthSession)
      .createQueryBuilder('s')
      .where('s.userId = :userId', { userId })
      .andWhere('s.revokedAt IS NULL')
      .andWhere('s.expiresAt > now()')
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getMany();
  }

  /** Revokes the user's own live session with this id; false when there is none. */
  async revokeOwnLiveSession(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(AuthSession)
      .set({ revokedAt: () => 'now()' })
      .where('id = :id AND user_id = :userId AND revoked_at IS NULL AND expires_at > now()', { id: sessionId, userId })
      .execute();
    return !!result.affected;
  }

  /** The newest unused, unexpired magic code of an email, or null. */
  findLatestLiveMagicCode(email: string): Promise<AuthCode | null> {
    return this.dataSource
      .getRepository(AuthCode)
      .createQueryBuilder('c')
      .where("c.kind = 'magic' AND c.email = :email AND c.usedAt IS NULL AND c.expiresAt > now()", { email })
      .orderBy('c.createdAt', 'DESC')
      .getOne();
  }

  /** Marks a magic code used unless it already is or has `maxTries` wrong attempts; false then. */
  async markMagicCodeUsed(id: string, maxTries: number): Promise<boolean> {
    const used = await this.dataSource
      .createQueryBuilder()
      .update(AuthCode)
      .set({ usedAt: () => 'now()' })
      .where('id = :id AND used_at IS NULL AND attempts < :max', { id, max: maxTries })
      .execute();
    return !!used.affected;
  }

  // ---- one-time codes (magic, password reset) ----

  /** Inserts a one-time code (its digest, never the code). */
  async insertCode(em: EntityManager, row: Partial<AuthCode>): Promise<void> {
    await em.insert(AuthCode, row);
  }

  /** The code of `kind` with this SHA-256 digest, used or expired ones included, or null. */
  findCodeByDigest(digest: string, kind: AuthCodeKind): Promise<AuthCode | null> {
    return this.manager.findOneBy(AuthCode, { digest, kind });
  }

  /** Counts one more wrong attempt at a code. */
  async countCodeAttempt(id: string): Promise<void> {
    await this.manager.increment(AuthCode, { id }, 'attempts', 1);
  }

  /** Marks used (now) the unused codes of a kind for an email or a user (a new one replaces them). */
  async retireCodes(em: EntityManager, kind: AuthCodeKind, by: { email?: string; userId?: string }): Promise<void> {
    await em.update(AuthCode, { kind, ...by, usedAt: IsNull() }, { usedAt: new Date() });
  }

  /** Marks a code used unless it already is; false when another request used it first. */
  async markCodeUsed(em: EntityManager, id: string): Promise<boolean> {
    const result = await em
      .createQueryBuilder()
      .update(AuthCode)
      .set({ usedAt: () => 'now()' })
      .where('id = :id AND used_at IS NULL', { id })
      .execute();
    return !!result.affected;
  }

  /** Deletes the codes that expired over a day ago. */
  async deleteCodesExpiredOverADayAgo(): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(AuthCode)
      .where("expires_at < now() - interval '1 day'")
      .execute();
  }

  // ---- SSO connections (sso-connection.service.ts, oidc.service.ts) ----

  /** Every stored SSO connection, oldest first (an instance has a handful). */
  listSsoConnections(): Promise<SsoConnection[]> {
    return this.dataSource.getRepository(SsoConnection).find({ order: { createdAt: 'ASC' } });
  }

  findSsoConnection(id: string): Promise<SsoConnection | null> {
    return this.dataSource.getRepository(SsoConnection).findOneBy({ id });
  }

  /** The domains of the given connections, by connection id. */
  async ssoDomainsOf(ids: string[]): Promise<Map<string, string[]>> {
    const map = new Map<string, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return map;
    const rows = await this.dataSource
      .getRepository(SsoConnectionDomain)
      .find({ where: { connectionId: In(ids) }, order: { domain: 'ASC' } });
    for (const r of rows) map.get(r.connectionId)?.push(r.domain);
    return map;
  }

  /** The stored connection owning an email domain, or null. */
  async ssoConnectionOfDomain(domain: string): Promise<SsoConnection | null> {
    const row = await this.dataSource.getRepository(SsoConnectionDomain).findOneBy({ domain });
    return row ? this.findSsoConnection(row.connectionId) : null;
  }

  /** Which of `domains` another connection than `exceptId` owns. */
  async ssoDomainsTaken(domains: string[], exceptId: string | null): Promise<string[]> {
    if (domains.length === 0) return [];
    const rows = await this.dataSource.getRepository(SsoConnectionDomain).findBy({ domain: In(domains) });
    return rows.filter((r) => r.connectionId !== exceptId).map((r) => r.domain);
  }

  /**
   * Inserts or updates a connection and replaces its domains, in one transaction, in which
   * `then(em, saved)` runs last (the audit row): its failure rolls the save back.
   */
  async saveSsoConnection(
    row: Partial<SsoConnection>,
    domains: string[] | undefined,
    then?: (em: EntityManager, saved: SsoConnection) => Promise<void>,
  ): Promise<SsoConnection> {
    return this.dataSource.transaction(async (em) => {
      const saved = await em.save(SsoConnection, em.create(SsoConnection, row));
      if (domains) {
        await em.delete(SsoConnectionDomain, { connectionId: saved.id });
        if (domains.length) {
          await em.insert(
            SsoConnectionDomain,
            domains.map((domain) => ({ domain, connectionId: saved.id })),
          );
        }
      }
      const fresh = await em.findOneByOrFail(SsoConnection, { id: saved.id });
      if (then) await then(em, fresh);
      return fresh;
    });
  }

  /**
   * Deletes a connection (its domains go with it) and runs `then(em, deleted)` in the same
   * transaction (the audit row); false when there was none.
   */
  async deleteSsoConnection(
    id: string,
    then?: (em: EntityManager, deleted: SsoConnection) => Promise<void>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (em) => {
      const row = await em.findOne(SsoConnection, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!row) return false;
      await em.delete(SsoConnection, { id });
      if (then) await then(em, row);
      return true;
    });
  }

  /** Links a user to an external account (a concurrent identical link is fine). */
  async linkAccount(userId: string, provider: string, accountId: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(UserAccount)
      .values({ userId, provider, providerAccountId: accountId, lastLoginAt: new Date() })
      .orIgnore()
      .execute();
  }
}
