import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, IsNull } from 'typeorm';
import { hotRead, ReadBatch, readIn } from '../kernel/hot-query';
import { WorkspaceMember } from './workspace-member.entity';
import { Workspace } from './workspace.entity';
import { SQL_WORKSPACE_ACCESS } from './workspace.sql';
import { isSoleAdminOfAny } from '../kernel/sole-admin';
import { likeContaining } from '../kernel/like-pattern';

/**
 * `userId`'s membership of the workspace in any state, or null (a function of `em` alone: the
 * membership helpers run in other rooms' transactions without the injected repository).
 */
export function findWorkspaceMembership(
  em: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<WorkspaceMember | null> {
  return em.getRepository(WorkspaceMember).findOneBy({ workspaceId, memberId: userId });
}

/** Updates one workspace membership row in `em`'s transaction. */
export async function updateWorkspaceMembership(
  em: EntityManager,
  id: string,
  patch: Partial<Pick<WorkspaceMember, 'isActive' | 'role' | 'updatedById'>>,
): Promise<void> {
  await em.update(WorkspaceMember, { id }, patch);
}

/** Inserts a workspace membership row in `em`'s transaction. */
export async function insertWorkspaceMembership(em: EntityManager, row: Partial<WorkspaceMember>): Promise<void> {
  await em.insert(WorkspaceMember, row as never);
}

/** All SQL of the workspace feature. */
@Injectable()
export class WorkspaceRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of the live workspaces where `userId` is an active member (the cursor envelope's order). */
  async listPageOfMember(userId: string, page: PageRequest): Promise<Page<Workspace>> {
    const qb = this.dataSource
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .innerJoin(
        WorkspaceMember,
        'm',
        'm.workspaceId = w.id AND m.memberId = :userId AND m.isActive = true AND m.deletedAt IS NULL',
        {
          userId,
        },
      );
    return paginate(qb, page);
  }

  /** Per workspace of `ids`: its active members' count and `userId`'s role in it (null for none). */
  async memberStats(
    ids: string[],
    userId: string,
  ): Promise<Array<{ workspace_id: string; total_members: number; role: number }>> {
    return this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('m')
      .select('m.workspaceId', 'workspace_id')
      .addSelect('COUNT(*)::int', 'total_members')
      .addSelect(`MAX(CASE WHEN m.memberId = :userId THEN m.role END)::int`, 'role')
      .where('m.workspaceId IN (:...ids)', { ids })
      .andWhere('m.isActive = true')
      .setParameter('userId', userId)
      .groupBy('m.workspaceId')
      .getRawMany<{ workspace_id: string; total_members: number; role: number }>();
  }

  /** The live workspace with this exact slug and `userId`'s active role in it (`SQL_WORKSPACE_ACCESS`), or undefined. */
  async findAccess(userId: string, slug: string): Promise<{ workspace_id: string; role: number | null } | undefined> {
    const rows = await hotRead(this.dataSource, SQL_WORKSPACE_ACCESS, [userId, slug]);
    return rows[0] as { workspace_id: string; role: number | null } | undefined;
  }

  /** Inserts the workspace row (`save`: the returned entity has its generated columns). */
  insertWorkspace(em: EntityManager, row: Partial<Workspace>): Promise<Workspace> {
    return em.save(em.create(Workspace, row));
  }

  /** The live workspace `id` (in `em`'s transaction), or null. */
  findLive(em: EntityManager, id: string): Promise<Workspace | null> {
    return em.getRepository(Workspace).findOneBy({ id });
  }

  /** The live workspace with this slug (in `em`'s transaction when given), or null. */
  findLiveBySlug(slug: string, em: EntityManager = this.dataSource.manager): Promise<Workspace | null> {
    return em.getRepository(Workspace).findOneBy({ slug });
  }

  // ---- memberships and the workspace row as the member, invitation and importer rooms need them

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The workspace's active memberships with their users (joined by relation), by display name then user id. */
  activeMembersByName(workspaceId: string): Promise<WorkspaceMember[]> {
    return this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('wm')
      .innerJoinAndSelect('wm.member', 'u')
      .where('wm.workspaceId = :workspaceId AND wm.isActive = true', { workspaceId })
      .orderBy('u.displayName', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
  }

  /**
   * A page of the workspace's active memberships with their users and workspace, oldest first;
   * `search` (trimmed, non-empty) matches display, first or last name, and the email when `viewerRole`
   * is Member or above. The users are joined by relation in this one paginated statement.
   */
  activeMembersPage(
    workspaceId: string,
    page: PageRequest,
    viewerRole: number,
    search?: string,
  ): Promise<Page<WorkspaceMember>> {
    const qb = this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('m')
      .innerJoinAndSelect('m.member', 'u')
      .innerJoinAndSelect('m.workspace', 'w')
      .where('m.workspaceId = :workspaceId AND m.isActive = true', { workspaceId });
    if (search?.trim()) {
      const like = `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        new Brackets((b) =>
          b
            .where('u.displayName ILIKE :like', { like })
            .orWhere('u.firstName ILIKE :like')
            .orWhere('u.lastName ILIKE :like')
            .orWhere(viewerRole >= ROLE.MEMBER ? 'u.email ILIKE :like' : 'false'),
        ),
      );
    }
    return paginate(qb, page);
  }

  /** `userId`'s own `view_props` in the workspace (null when never saved); undefined without an active membership. */
  async activeViewProps(
    workspaceId: string,
    userId: string,
  ): Promise<{ viewProps: Record<string, unknown> | null } | undefined> {
    const row = await this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('m')
      .select('m.viewProps', 'view_props')
      .where('m.workspaceId = :workspaceId AND m.memberId = :userId AND m.isActive = true', { workspaceId, userId })
      .getRawOne<{ view_props: Record<string, unknown> | null }>();
    return row && { viewProps: row.view_props };
  }

  /** Replaces `userId`'s own `view_props` in the workspace; false without an active membership. */
  async saveViewProps(workspaceId: string, userId: string, viewProps: Record<string, unknown>): Promise<boolean> {
    const result = await this.dataSource.getRepository(WorkspaceMember).update(
      { workspaceId, memberId: userId, isActive: true, deletedAt: IsNull() },
      // a jsonb object: TypeORM's deep-partial type would walk into it
      { viewProps: viewProps as never, updatedById: userId },
    );
    return (result.affected ?? 0) > 0;
  }

  /** How many active Admins the workspace has besides `userId` (in `em`'s transaction). */
  countOtherActiveAdmins(em: EntityManager, workspaceId: string, userId: string): Promise<number> {
    return em
      .getRepository(WorkspaceMember)
      .createQueryBuilder('m')
      .where('m.workspaceId = :workspaceId AND m.isActive = true AND m.role = :admin AND m.memberId <> :userId', {
        workspaceId,
        admin: ROLE.ADMIN,
        userId,
      })
      .getCount();
  }

  /** `userId`'s oldest active membership of a live workspace (only in `workspaceId` if given): its id and slug. */
  oldestLiveWorkspaceOf(
    em: EntityManager,
    userId: string,
    workspaceId?: string,
  ): Promise<{ id: string; slug: string } | undefined> {
    const qb = em
      .getRepository(WorkspaceMember)
      .createQueryBuilder('m')
      .innerJoin(Workspace, 'w', 'w.id = m.workspaceId AND w.deletedAt IS NULL')
      .select(['w.id AS id', 'w.slug AS slug'])
      .where('m.memberId = :userId AND m.isActive = true', { userId });
    if (workspaceId) qb.andWhere('m.workspaceId = :workspaceId', { workspaceId });
    return qb.orderBy('m.createdAt', 'ASC').limit(1).getRawOne<{ id: string; slug: string }>();
  }

  /** The active workspace roles of the members with these (lower-case) emails (users joined by relation), by email. */
  async activeRolesByEmail(em: EntityManager, workspaceId: string, emails: string[]): Promise<Map<string, number>> {
    if (!emails.length) return new Map();
    const rows = await em
      .getRepository(WorkspaceMember)
      .createQueryBuilder('wm')
      .innerJoin('wm.member', 'u')
      .select('LOWER(u.email)', 'email')
      .addSelect('wm.role', 'role')
      .where('wm.workspaceId = :workspaceId AND wm.isActive = true AND LOWER(u.email) IN (:...emails)', {
        workspaceId,
        emails,
      })
      .getRawMany<{ email: string; role: number }>();
    return new Map(rows.map((r) => [r.email, Number(r.role)]));
  }

  /** The workspace's active membership row (`where` adds the key), with its user and workspace when `withRelations`, or null. */
  findActiveMember(
    em: EntityManager,
    where: { workspaceId: string; id?: string; memberId?: string },
    withRelations: boolean,
  ): Promise<WorkspaceMember | null> {
    return withRelations
      ? em.getRepository(WorkspaceMember).findOne({
          where: { ...where, isActive: true },
          relations: { member: true, workspace: true },
        })
      : em.getRepository(WorkspaceMember).findOneBy({ ...where, isActive: true });
  }

  /** Sets the membership row's role. */
  async setMemberRole(em: EntityManager, rowId: string, role: number, actorId: string): Promise<void> {
    await em.update(WorkspaceMember, { id: rowId }, { role, updatedById: actorId });
  }

  /** Deactivates `userId`'s membership of the workspace. */
  async deactivateMember(em: EntityManager, workspaceId: string, userId: string, actorId: string): Promise<void> {
    await em.update(WorkspaceMember, { workspaceId, memberId: userId }, { isActive: false, updatedById: actorId });
  }

  /** How many active members the workspace has. */
  countActiveMembers(workspaceId: string): Promise<number> {
    return this.dataSource.getRepository(WorkspaceMember).countBy({ workspaceId, isActive: true });
  }

  /** The live workspace; throws TypeORM's `EntityNotFoundError` when there is none. */
  liveOrFail(em: EntityManager, id: string): Promise<Workspace> {
    return em.getRepository(Workspace).findOneByOrFail({ id });
  }

  /** The live workspaces among `ids`, in no order. */
  /** The workspaces among `ids`, deleted ones too, in no order. */
  withDeletedByIds(ids: string[]): Promise<Workspace[]> {
    return this.dataSource.getRepository(Workspace).find({ where: { id: In(ids) }, withDeleted: true });
  }

  liveByIds(em: EntityManager, ids: string[]): Promise<Workspace[]> {
    return em.getRepository(Workspace).find({ where: { id: In(ids) } });
  }

  /** Updates the workspace row (a taken slug throws the unique violation `uq_workspaces_slug`). */
  async update(id: string, patch: Partial<Workspace>): Promise<void> {
    await this.dataSource.getRepository(Workspace).update({ id }, patch);
  }

  /** Soft-deletes the workspace row with `now`. */
  async softDelete(em: EntityManager, id: string, userId: string, now: Date): Promise<void> {
    await em.update(Workspace, { id }, { deletedAt: now, updatedById: userId });
  }

  /** Whether any workspace, a deleted one included, holds the slug. */
  slugTaken(slug: string): Promise<boolean> {
    return this.dataSource.getRepository(Workspace).exists({ where: { slug }, withDeleted: true });
  }

  /** The active memberships of the workspace among `userIds` (live rows). */
  async activeMembersAmong(em: EntityManager, workspaceId: string, userIds: string[]): Promise<WorkspaceMember[]> {
    return em.getRepository(WorkspaceMember).findBy({ workspaceId, memberId: In(userIds), isActive: true });
  }

  /** Whether `userId` is an active member of the live workspace `workspaceId` (in `em`'s transaction). */
  async isActiveMember(em: EntityManager, workspaceId: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await em.query(
      `SELECT 1 FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL
       WHERE m.workspace_id = $1 AND m.member_id = $2 AND m.is_active = true AND m.deleted_at IS NULL LIMIT 1`,
      [workspaceId, userId],
    );
    return rows.length > 0;
  }

  /** The workspace's `logo` (null when the workspace is deleted or gone). */
  async logo(em: EntityManager, id: string): Promise<string | null> {
    const row = await em.getRepository(Workspace).findOne({ where: { id }, select: { id: true, logo: true } });
    return row?.logo ?? null;
  }

  /** Sets the workspace's `logo`; `onlyIf`: only while it still holds that URL. */
  async setLogo(em: EntityManager, id: string, url: string | null, onlyIf?: string): Promise<void> {
    await em.getRepository(Workspace).update(onlyIf === undefined ? { id } : { id, logo: onlyIf }, { logo: url });
  }
  // ---- memberships as sign-in (SSO group roles) and deactivation change them (the auth room,
  // through WorkspaceService), in `em`'s transaction ----

  /** The live workspaces whose slug is among `slugs` (non-empty). */
  liveBySlugs(em: EntityManager, slugs: string[]): Promise<Workspace[]> {
    return em.getRepository(Workspace).findBy({ slug: In(slugs) });
  }

  /** Inserts a workspace membership and answers its row id. */
  async insertMembershipId(em: EntityManager, row: Partial<WorkspaceMember>): Promise<string> {
    const inserted = await em.insert(WorkspaceMember, row as never);
    return (inserted.identifiers[0] as { id: string }).id;
  }

  /** `userId`'s active memberships (row id, workspace, role). */
  async activeMembershipsOf(
    em: EntityManager,
    userId: string,
  ): Promise<{ id: string; workspaceId: string; role: number }[]> {
    const rows = await em.find(WorkspaceMember, {
      where: { memberId: userId, isActive: true },
      select: { id: true, workspaceId: true, role: true },
    });
    return rows.map((r) => ({ id: r.id, workspaceId: r.workspaceId, role: r.role }));
  }

  /** Makes `userId`'s active memberships inactive. */
  async deactivateMembershipsOf(em: EntityManager, userId: string): Promise<void> {
    await em.update(WorkspaceMember, { memberId: userId, isActive: true }, { isActive: false });
  }

  /** Whether `userId` is the only active Admin (20) of a workspace that has other active members. */
  isSoleAdminOfAny(em: EntityManager, userId: string): Promise<boolean> {
    return isSoleAdminOfAny(em, 'workspace_members', userId);
  }

  // ---- the instance admins' view of workspaces

  /** A page of live workspaces (the cursor envelope's order); `search` matches the name or slug, case-insensitively. */
  pageForInstance(page: PageRequest, search?: string): Promise<Page<Workspace>> {
    const qb = this.dataSource.getRepository(Workspace).createQueryBuilder('w');
    const term = search?.trim();
    if (term) {
      const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(new Brackets((b) => b.where('w.name ILIKE :like', { like }).orWhere('w.slug ILIKE :like', { like })));
    }
    return paginate(qb, page);
  }

  /** Active members per workspace id of `ids` (non-empty; ids without members are absent). */
  async activeMemberCounts(ids: string[]): Promise<Map<string, number>> {
    const rows = await this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('x')
      .select('x.workspaceId', 'id')
      .addSelect('COUNT(*)::int', 'n')
      .where('x.workspaceId IN (:...ids)', { ids })
      .andWhere('x.isActive = true')
      .groupBy('x.workspaceId')
      .getRawMany<{ id: string; n: number }>();
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  /** Whether a workspace, even a deleted one, has this slug in any letter case. */
  slugTakenAnyCase(slug: string): Promise<boolean> {
    return this.dataSource
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .withDeleted()
      .where('LOWER(w.slug) = LOWER(:slug)', { slug })
      .getExists();
  }

  /** Whether any live workspace exists (in `em`'s transaction). */
  anyLive(em: EntityManager): Promise<boolean> {
    return em.getRepository(Workspace).exists();
  }

  // ---- searches (the search room's `search/` and `entity-search/`, through WorkspaceService)

  /**
   * `userId`'s workspaces (active membership) whose name contains `q`, newest first, at most
   * `limit`: `{name, id, slug}`. With `batch`, sent in it (the search room's `ReadBatch`).
   */
  searchOfMember(userId: string, q: string, limit: number, batch?: ReadBatch): Promise<unknown[]> {
    const text = `SELECT w.name, w.id, w.slug FROM workspaces w
JOIN workspace_members m ON m.workspace_id = w.id AND m.member_id = $1 AND m.is_active = true AND m.deleted_at IS NULL
WHERE w.name ILIKE $2 ESCAPE '\\' AND w.deleted_at IS NULL ORDER BY w.created_at DESC LIMIT $3`;
    return readIn(batch, this.dataSource, text, [userId, likeContaining(q), limit]);
  }

  /**
   * The workspace's active members who are not bots, newest membership first, at most `limit`,
   * `q` (when given) in the first, last or display name: `{member__avatar_url,
   * member__display_name, member__id}` (the user room's `users` joined by entity name). With
   * `batch`, sent in it (the search room's `ReadBatch`).
   */
  mentionableMembers(workspaceId: string, q: string, limit: number, batch?: ReadBatch): Promise<unknown[]> {
    const named = q
      ? ` AND (u.first_name ILIKE $3 ESCAPE '\\' OR u.last_name ILIKE $3 ESCAPE '\\' OR u.display_name ILIKE $3 ESCAPE '\\')`
      : '';
    const text = `SELECT u.avatar AS member__avatar_url, u.display_name AS member__display_name, u.id AS member__id
FROM workspace_members m JOIN users u ON u.id = m.member_id AND u.is_bot = false
WHERE m.workspace_id = $1 AND m.is_active = true AND m.deleted_at IS NULL${named}
ORDER BY m.created_at DESC, m.id DESC LIMIT $2`;
    return readIn(batch, this.dataSource, text, q ? [workspaceId, limit, likeContaining(q)] : [workspaceId, limit]);
  }
}
