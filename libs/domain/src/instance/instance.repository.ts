import { randomHex } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Instance } from './instance.entity';
import { InstanceAdmin } from './instance-admin.entity';
import { InstanceAdminSession } from './instance-admin-session.entity';

/** The row of `findLiveAdminSessionByAccessDigest`. */
export interface LiveAdminSessionRow {
  session_id: string;
  user_id: string;
}

/**
 * All SQL of the instance feature: the instance row, its admins and their sessions (`instances`,
 * `instance_admins`, `instance_admin_sessions`). Users, workspaces and projects are read through
 * their rooms' doors by the services. Methods that take an `EntityManager` run in the caller's
 * transaction.
 */
@Injectable()
export class InstanceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The instance row, inserted first when missing (`INSERT … ON CONFLICT DO NOTHING`: concurrent callers end with the same row). */
  async ensureInstance(em: EntityManager): Promise<Instance> {
    const repo = em.getRepository(Instance);
    const found = await repo.findOneBy({ singleton: true });
    if (found) return found;
    await repo
      .createQueryBuilder()
      .insert()
      .values({ singleton: true, instanceName: 'Meridian', instanceKey: randomHex(12) })
      .orIgnore()
      .execute();
    return repo.findOneByOrFail({ singleton: true });
  }

  /** Locks the instance row (`FOR UPDATE`) until the caller's transaction ends: serialises set-ups and admin removals. */
  async lockInstance(em: EntityManager, instanceId: string): Promise<void> {
    await em
      .getRepository(Instance)
      .createQueryBuilder('i')
      .setLock('pessimistic_write')
      .where('i.id = :id', { id: instanceId })
      .getOne();
  }

  /** The live admin session whose refresh token has this SHA-256 digest (not revoked, not ended), locked `FOR UPDATE`; or null. */
  findLiveAdminSessionByRefreshDigestForUpdate(
    em: EntityManager,
    digest: string,
  ): Promise<InstanceAdminSession | null> {
    return em
      .getRepository(InstanceAdminSession)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.refreshDigest = :digest', { digest })
      .andWhere('s.revokedAt IS NULL')
      .andWhere('s.expiresAt > now()')
      .getOne();
  }

  /**
   * The session and user behind a live admin access token (by its SHA-256 digest): the session is
   * not revoked, neither token nor session has expired, and its user is still an instance admin.
   * Undefined otherwise (whether the user is active, the service asks the user room).
   */
  findLiveAdminSessionByAccessDigest(digest: string): Promise<LiveAdminSessionRow | undefined> {
    return this.dataSource
      .getRepository(InstanceAdminSession)
      .createQueryBuilder('s')
      .innerJoin(InstanceAdmin, 'a', 'a.userId = s.userId')
      .select('s.id', 'session_id')
      .addSelect('s.userId', 'user_id')
      .where('s.accessDigest = :digest', { digest })
      .andWhere('s.accessExpiresAt > now()')
      .andWhere('s.expiresAt > now()')
      .andWhere('s.revokedAt IS NULL')
      .getRawOne<LiveAdminSessionRow>();
  }

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Whether the user is an instance admin. */
  isAdmin(em: EntityManager, userId: string): Promise<boolean> {
    return em.getRepository(InstanceAdmin).existsBy({ userId });
  }

  /** How many instance admins there are. */
  countAdmins(em: EntityManager): Promise<number> {
    return em.getRepository(InstanceAdmin).count();
  }

  /** The instance admin row, or null. */
  findAdmin(em: EntityManager, id: string): Promise<InstanceAdmin | null> {
    return em.getRepository(InstanceAdmin).findOneBy({ id });
  }

  /** Every instance admin, oldest first. */
  listAdmins(): Promise<InstanceAdmin[]> {
    return this.dataSource.getRepository(InstanceAdmin).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Inserts an instance admin row with `save` (a taken user is the unique violation `uq_instance_admins_user`). */
  saveAdmin(row: Partial<InstanceAdmin>): Promise<InstanceAdmin> {
    const admins = this.dataSource.getRepository(InstanceAdmin);
    return admins.save(admins.create(row));
  }

  /** Inserts an instance admin row with `insert`. */
  async insertAdmin(em: EntityManager, row: Partial<InstanceAdmin>): Promise<void> {
    await em.getRepository(InstanceAdmin).insert(row as never);
  }

  /** Deletes the instance admin row, then revokes the user's live admin sessions. */
  async deleteAdmin(em: EntityManager, admin: InstanceAdmin): Promise<void> {
    await em.delete(InstanceAdmin, { id: admin.id });
    await em.update(InstanceAdminSession, { userId: admin.userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Inserts an admin session. */
  async insertAdminSession(em: EntityManager, row: Partial<InstanceAdminSession>): Promise<void> {
    await em.insert(InstanceAdminSession, row as never);
  }

  /** Updates one admin session. */
  async updateAdminSession(em: EntityManager, id: string, patch: Partial<InstanceAdminSession>): Promise<void> {
    await em.update(InstanceAdminSession, { id }, patch as never);
  }

  /** Revokes the admin session unless it is revoked already. */
  async revokeAdminSession(sessionId: string): Promise<void> {
    await this.dataSource
      .getRepository(InstanceAdminSession)
      .update({ id: sessionId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Updates the instance row. */
  async updateInstance(em: EntityManager, id: string, patch: Partial<Instance>): Promise<void> {
    await em.getRepository(Instance).update({ id }, patch as never);
  }

  /** The instance row; throws TypeORM's `EntityNotFoundError` when there is none. */
  instanceByIdOrFail(em: EntityManager, id: string): Promise<Instance> {
    return em.getRepository(Instance).findOneByOrFail({ id });
  }
}
