import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { hotRead } from '../kernel/hot-query';
import { ApiToken } from './api-token.entity';
import { SQL_VERIFY_API_KEY } from './api-token.sql';

/** The row of `SQL_VERIFY_API_KEY`. */
export interface VerifiedApiKeyRow {
  id: string;
  workspace_id: string;
  last_used: Date | null;
  expired_at: Date | null;
  user_id: string;
  email: string;
}

/** The row of `findLiveService`. */
export interface ServiceTokenRow {
  id: string;
  token_digest: string;
  token_sealed: string | null;
  /** what `SQL_VERIFY_API_KEY` would accept: active, unexpired, its user active and an active member */
  usable: boolean;
}

/** All SQL of the api-token feature. */
@Injectable()
export class ApiTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of `userId`'s own non-service keys in the workspace (the cursor envelope's order). */
  async listOwnPage(workspaceId: string, userId: string, page: PageRequest): Promise<Page<ApiToken>> {
    const qb = this.dataSource
      .getRepository(ApiToken)
      .createQueryBuilder('t')
      .where('t.workspaceId = :workspaceId AND t.userId = :userId AND t.isService = false', { workspaceId, userId });
    return paginate(qb, page);
  }

  /**
   * The workspace's live (not deleted) service token with its sealed key, whether it still
   * authenticates (`usable`), or undefined. Call inside the transaction that holds the workspace lock.
   */
  async findLiveService(em: EntityManager, workspaceId: string): Promise<ServiceTokenRow | undefined> {
    const [row] = (await em.query(
      `SELECT t.id, t.token_digest, t.token_sealed,
              (t.is_active AND (t.expired_at IS NULL OR t.expired_at > now()) AND u.id IS NOT NULL AND m.id IS NOT NULL) AS usable
       FROM api_tokens t
       LEFT JOIN users u ON u.id = t.user_id AND u.is_active = true
       LEFT JOIN workspace_members m ON m.workspace_id = t.workspace_id AND m.member_id = t.user_id
            AND m.is_active = true AND m.deleted_at IS NULL
       WHERE t.workspace_id = $1 AND t.is_service = true AND t.deleted_at IS NULL
       ORDER BY t.created_at DESC, t.id DESC
       LIMIT 1`,
      [workspaceId],
    )) as ServiceTokenRow[];
    return row;
  }

  /** Revokes a key for good (soft delete), through TypeORM so that cached access is dropped. */
  async revoke(em: EntityManager, id: string, byUserId: string): Promise<void> {
    await em.getRepository(ApiToken).update({ id }, { deletedAt: new Date(), isActive: false, updatedById: byUserId });
  }

  /** Inserts a key row (`tokenSealed` included, which `save` would not read back). */
  async insert(em: EntityManager, row: Partial<ApiToken>): Promise<string> {
    const result = await em.getRepository(ApiToken).insert(row);
    return (result.identifiers[0] as { id: string }).id;
  }

  /** Saves a new key row (`create`) and reads it back whole, with `em`. */
  async create(em: EntityManager, row: Partial<ApiToken>): Promise<ApiToken> {
    const saved = await em.getRepository(ApiToken).save(row);
    return em.getRepository(ApiToken).findOneByOrFail({ id: saved.id });
  }

  /** Applies `patch` to key `id` with `em`. */
  async patch(em: EntityManager, id: string, patch: Partial<ApiToken>): Promise<void> {
    await em.getRepository(ApiToken).update({ id }, patch);
  }

  /** The usable key with this digest, its user and workspace (`SQL_VERIFY_API_KEY`), or undefined. */
  async findUsableByDigest(digest: string): Promise<VerifiedApiKeyRow | undefined> {
    const [row] = (await hotRead(this.dataSource, SQL_VERIFY_API_KEY, [digest])) as VerifiedApiKeyRow[];
    return row;
  }

  /** Sets `last_used` to now as a plain statement, so that bookkeeping does not move `updated_at`. */
  async touchLastUsed(id: string): Promise<void> {
    await this.dataSource.query('UPDATE api_tokens SET last_used = now() WHERE id = $1', [id]);
  }

  /** The user's own (not service) key `id` of the workspace, live, or null. */
  findOwn(workspaceId: string, userId: string, id: string): Promise<ApiToken | null> {
    return this.dataSource.getRepository(ApiToken).findOneBy({ id, workspaceId, userId, isService: false });
  }

  /** Revokes `userId`'s live keys for the workspace for good (inactive, `deleted_at` = now). */
  async revokeForMember(em: EntityManager, workspaceId: string, userId: string): Promise<void> {
    await em.update(ApiToken, { workspaceId, userId, deletedAt: IsNull() }, { isActive: false, deletedAt: new Date() });
  }

  /** Soft-deletes the workspace's live keys with `now` (and makes them inactive). */
  async deleteAllInWorkspace(em: EntityManager, workspaceId: string, now: Date): Promise<void> {
    await em.update(ApiToken, { workspaceId, deletedAt: IsNull() }, { deletedAt: now, isActive: false });
  }
}
