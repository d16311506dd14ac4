import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { AuthToken } from './auth-token.entity';
import { SamlAssertion, SamlRequest, SamlSession } from './saml-message.entity';

/**
 * The SQL of SAML sign-in and single logout (saml.service.ts): the AuthnRequests and LogoutRequests
 * awaiting their answer, the assertion (and LogoutRequest) IDs already accepted, and the NameID /
 * SessionIndex of each session a SAML sign-in opened. Expired rows are deleted on each write (no job needed: the
 * tables hold minutes of traffic).
 */
@Injectable()
export class SamlRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Stores a request sent (and deletes expired ones). */
  async saveRequest(row: SamlRequest): Promise<void> {
    const repo = this.dataSource.getRepository(SamlRequest);
    await repo.delete({ expiresAt: LessThan(new Date()) });
    await repo.insert(row);
  }

  /** The live (unexpired) request with this ID, or null. */
  async findRequest(id: string): Promise<SamlRequest | null> {
    const row = await this.dataSource.getRepository(SamlRequest).findOneBy({ id });
    return row && row.expiresAt.getTime() > Date.now() ? row : null;
  }

  /** Deletes a request (answered). */
  async deleteRequest(id: string): Promise<void> {
    await this.dataSource.getRepository(SamlRequest).delete({ id });
  }

  /** Whether this assertion key (`<connection id>:<assertion ID>`) was accepted and has not expired. */
  async assertionSeen(id: string): Promise<boolean> {
    const row = await this.dataSource.getRepository(SamlAssertion).findOneBy({ id });
    return !!row && row.expiresAt.getTime() > Date.now();
  }

  /**
   * Remembers an accepted assertion until `expiresAt`. False when it was already remembered
   * (a replay, also one racing on another replica: the primary key decides).
   */
  async rememberAssertion(id: string, expiresAt: Date): Promise<boolean> {
    await this.dataSource.getRepository(SamlAssertion).delete({ expiresAt: LessThan(new Date()) });
    const rows = (await this.dataSource.query(
      'INSERT INTO saml_assertions (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
      [id, expiresAt],
    )) as unknown[];
    return rows.length === 1;
  }

  /** The session of a web token (its SHA-256 digest), in the caller's transaction: the one a sign-in just opened. */
  async sessionIdOfWebToken(em: EntityManager, digest: string): Promise<string | null> {
    const row = await em.getRepository(AuthToken).findOneBy({ digest, kind: 'web' });
    return row?.sessionId ?? null;
  }

  /** Keeps what single logout needs of a session a SAML sign-in opened (in the sign-in's transaction). */
  async saveSession(em: EntityManager, row: SamlSession): Promise<void> {
    await em.getRepository(SamlSession).insert(row);
  }

  /** The SAML sign-in of a session, or null (a session opened otherwise). */
  async sessionOf(sessionId: string): Promise<SamlSession | null> {
    return this.dataSource.getRepository(SamlSession).findOneBy({ sessionId });
  }

  /**
   * The live (not revoked, not expired) sessions opened through `connectionId` for `nameId`, with
   * their users; only those of the given SessionIndexes when some are given.
   */
  async liveSessionsOf(
    connectionId: string,
    nameId: string,
    sessionIndexes: string[],
  ): Promise<Array<{ sessionId: string; userId: string }>> {
    const query = this.dataSource
      .getRepository(SamlSession)
      .createQueryBuilder('s')
      .innerJoin('auth_sessions', 'a', 'a.id = s.session_id')
      .select('s.session_id', 'sessionId')
      .addSelect('a.user_id', 'userId')
      .where('s.connection_id = :connectionId', { connectionId })
      .andWhere('s.name_id = :nameId', { nameId })
      .andWhere('a.revoked_at IS NULL')
      .andWhere('a.expires_at > :now', { now: new Date() });
    if (sessionIndexes.length) query.andWhere('s.session_index IN (:...sessionIndexes)', { sessionIndexes });
    return query.getRawMany<{ sessionId: string; userId: string }>();
  }
}
