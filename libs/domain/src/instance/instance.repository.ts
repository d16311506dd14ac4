import { Page, PageRequest, paginate, randomHex } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, IsNull } from 'typeorm';
import { Project } from '../project';
import { User } from '../user';
import { Workspace, WorkspaceMember } from '../workspace';
import { Instance, InstanceAdmin, InstanceAdminSession } from '../instance-config';

/** The row of `findLiveAdminSessionByAccessDigest`. */
export interface LiveAdminSessionRow {
  session_id: string;
  user_id: string;
  email: string;
}

/**
 * All SQL of the instance feature: the instance row, admin sessions, and the admins' view of
 * workspaces. Methods that take an `EntityManager` run in the caller's transaction.
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
   * The session, user and email behind a live admin access token (by its SHA-256 digest): the session
   * is not revoked, neither token nor session has expired, the user is active and still an instance
   * admin. Undefined otherwise.
   */
  findLiveAdminSessionByAccessDigest(digest: string): Promise<LiveAdminSessionRow | undefined> {
    return this.dataSource
      .getRepository(InstanceAdminSession)
      .createQueryBuilder('s')
      .innerJoin(User, 'u', 'u.id = s.userId')
      .innerJoin(InstanceAdmin, 'a', 'a.userId = s.userId')
      .select('s.id', 'session_id')
      .addSelect('u.id', 'user_id')
      .addSelect('u.email', 'email')
      .where('s.accessDigest = :digest', { digest })
      .andWhere('s.accessExpiresAt > now()')
      .andWhere('s.expiresAt > now()')
      .andWhere('s.revokedAt IS NULL')
      .andWhere('u.isActive = true')
      .getRawOne<LiveAdminSessionRow>();
  }

  /** A page of live workspaces (the cursor envelope's order); `search` matches the name or slug, case-insensitively. */
  listWorkspacesPage(page: PageRequest, search?: string): Promise<Page<Workspace>> {
    const qb = this.dataSource.getRepository(Workspace).createQueryBuilder('w');
    const term = search?.trim();
    if (term) {
      const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(new Brackets((b) => b.where('w.name ILIKE :like', { like }).orWhere('w.slug ILIKE :like', { like })));
    }
    return paginate(qb, page);
  }

  /** Active members per workspace id (ids without members are absent). */
  countActiveMembers(workspaceIds: string[]): Promise<Map<string, number>> {
    return this.countBy(WorkspaceMember, 'x.workspaceId', workspaceIds, 'x.isActive = true');
  }

  /** Live projects per workspace id (ids without projects are absent). */
  countProjects(workspaceIds: string[]): Promise<Map<string, number>> {
    return this.countBy(Project, 'x.workspaceId', workspaceIds);
  }

  /** The users with these ids (any order; unknown ids are skipped). */
  findUsers(ids: string[]): Promise<User[]> {
    return this.dataSource
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.id IN (:...ownerIds)', { ownerIds: ids })
      .getMany();
  }

  /** Whether a workspace, even a deleted one, has this slug in any letter case. */
  isSlugTaken(slug: string): Promise<boolean> {
    return this.dataSource
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .withDeleted()
      .where('LOWER(w.slug) = LOWER(:slug)', { slug })
      .getExists();
  }

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Whether any workspace (live) exists. */
  anyWorkspace(em: EntityManager): Promise<boolean> {
    return em.getRepository(Workspace).exists();
  }

  /** The user with this email (as given), active only with `activeOnly`; or null. */
  userByEmail(em: EntityManager, email: string, activeOnly = false): Promise<User | null> {
    return em.getRepository(User).findOneBy(activeOnly ? { email, isActive: true } : { email });
  }

  /** The user with this id, or null. */
  userById(em: EntityManager, id: string): Promise<User | null> {
    return em.getRepository(User).findOneBy({ id });
  }

  /** The user with this id; throws TypeORM's `EntityNotFoundError` when there is none. */
  userByIdOrFail(id: string): Promise<User> {
    return this.dataSource.getRepository(User).findOneByOrFail({ id });
  }

  /** Inserts a user row (`save`: the returned entity has its generated columns). */
  insertUser(em: EntityManager, row: Partial<User>): Promise<User> {
    const users = em.getRepository(User);
    return users.save(users.create(row));
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

  /** Every instance admin with their user, oldest first. */
  listAdmins(): Promise<InstanceAdmin[]> {
    return this.dataSource
      .getRepository(InstanceAdmin)
      .find({ relations: { user: true }, order: { createdAt: 'ASC', id: 'ASC' } });
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

  private async countBy(
    entity: typeof WorkspaceMember | typeof Project,
    column: string,
    ids: string[],
    extra?: string,
  ): Promise<Map<string, number>> {
    const qb = this.dataSource
      .getRepository<WorkspaceMember | Project>(entity)
      .createQueryBuilder('x')
      .select(column, 'id')
      .addSelect('COUNT(*)::int', 'n')
      .where(`${column} IN (:...ids)`, { ids })
      .groupBy(column);
    if (extra) qb.andWhere(extra);
    const rows = await qb.getRawMany<{ id: string; n: number }>();
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }
}
