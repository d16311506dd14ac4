import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, FindOptionsWhere, In, IsNull, Not } from 'typeorm';
import { hotRead, ReadBatch, readIn } from '../kernel/hot-query';
import { externalIdMap } from '../kernel/external-id';
import { NETWORK, Project } from './project.entity';
import { ProjectMember } from './project-member.entity';
import { SQL_PROJECT_ACCESS } from './project.sql';
import { isSoleAdminOfAny } from '../kernel/sole-admin';
import { likeContaining } from '../kernel/like-pattern';

/** `:userId` is an active member of project `p`. */
const IS_MEMBER = `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = :userId
        AND pm.is_active = true AND pm.deleted_at IS NULL)`;

/** A project whose daily automation is on, as the run reads it (`months` of `archive_in` or `close_in`). */
export interface AutomatedProject {
  id: string;
  workspace_id: string;
  created_by_id: string | null;
  /** months (0–12); 0 is off */
  months: number;
  default_state_id: string | null;
}

/** All SQL of the project feature (projects and project memberships). */
@Injectable()
export class ProjectRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live project's network and `userId`'s active role in it (`SQL_PROJECT_ACCESS`), or undefined. */
  async findAccess(
    userId: string,
    projectId: string,
    workspaceId: string,
  ): Promise<{ network: number; role: number | null } | undefined> {
    const rows = await hotRead(this.dataSource, SQL_PROJECT_ACCESS, [userId, projectId, workspaceId]);
    return rows[0] as { network: number; role: number | null } | undefined;
  }

  /** A page of the workspace's projects that are public or have `userId` as an active member (v1's list). */
  async listPagePublicOrMember(workspaceId: string, userId: string, page: PageRequest): Promise<Page<Project>> {
    const qb = this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.workspaceId = :workspaceId', { workspaceId })
      .andWhere(
        new Brackets((w) =>
          w.where('p.network = :public', { public: NETWORK.PUBLIC }).orWhere(
            `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = :userId
               AND pm.is_active = true AND pm.deleted_at IS NULL)`,
            { userId },
          ),
        ),
      );
    return paginate(qb, page);
  }

  /**
   * A page of the workspace's projects, archived ones included: all of them without `memberOf`;
   * else those `memberOf.userId` is an active member of, plus the public ones with `memberOf.orPublic`.
   */
  async listPage(
    workspaceId: string,
    page: PageRequest,
    memberOf?: { userId: string; orPublic: boolean },
  ): Promise<Page<Project>> {
    const qb = this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.workspaceId = :workspaceId', { workspaceId });
    if (memberOf) {
      qb.andWhere(
        new Brackets((w) => {
          w.where(IS_MEMBER, { userId: memberOf.userId });
          if (memberOf.orPublic) w.orWhere('p.network = :public', { public: NETWORK.PUBLIC });
        }),
      );
    }
    return paginate(qb, page);
  }

  /**
   * Every project of the workspace `listPage` would page through (same `memberOf` rule), by name
   * (`GET /projects/details/`, Plane's `list_detail`, a plain list).
   */
  listAll(workspaceId: string, memberOf?: { userId: string; orPublic: boolean }): Promise<Project[]> {
    const qb = this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.workspaceId = :workspaceId', { workspaceId });
    if (memberOf) {
      qb.andWhere(
        new Brackets((w) => {
          w.where(IS_MEMBER, { userId: memberOf.userId });
          if (memberOf.orPublic) w.orWhere('p.network = :public', { public: NETWORK.PUBLIC });
        }),
      );
    }
    return qb.orderBy('p.name', 'ASC').addOrderBy('p.id', 'ASC').getMany();
  }

  /** The user's active memberships of the workspace's live projects: `{project_id, role}`. */
  activeRoles(workspaceId: string, userId: string): Promise<Array<{ project_id: string; role: number }>> {
    return this.dataSource.query(
      `SELECT pm.project_id, pm.role FROM project_members pm
        JOIN projects p ON p.id = pm.project_id AND p.deleted_at IS NULL
        WHERE pm.workspace_id = $1 AND pm.member_id = $2 AND pm.is_active = true AND pm.deleted_at IS NULL
        ORDER BY pm.project_id`,
      [workspaceId, userId],
    );
  }

  /** The live project of the workspace, or null; `lock` takes a row lock (`FOR UPDATE`) for `em`'s transaction. */
  async findInWorkspace(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    lock = false,
  ): Promise<Project | null> {
    const qb = em
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.id = :projectId AND p.workspaceId = :workspaceId', { projectId, workspaceId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** The smallest `sort_order` of `memberId`'s memberships (any state) in the workspace, or null for none. */
  async minMemberSortOrder(em: EntityManager, workspaceId: string, memberId: string): Promise<number | null> {
    const row = await em
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .select('MIN(pm.sortOrder)', 'min')
      .where('pm.workspaceId = :workspaceId AND pm.memberId = :memberId', { workspaceId, memberId })
      .getRawOne<{ min: number | null }>();
    return row?.min === null || row?.min === undefined ? null : Number(row.min);
  }

  /** A page of the project's active memberships with their users. */
  /**
   * Active memberships (with their users) of every live project of the workspace that `userId` is an
   * active member of, by project then membership age (Plane's `WorkspaceProjectMemberEndpoint`).
   */
  listMembersOfMemberProjects(workspaceId: string, userId: string): Promise<ProjectMember[]> {
    return this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .innerJoinAndSelect('pm.member', 'u')
      .innerJoin('pm.project', 'p', 'p.deletedAt IS NULL')
      .where('pm.workspaceId = :workspaceId AND pm.isActive = true', { workspaceId })
      .andWhere(
        'pm.projectId IN (SELECT mine.project_id FROM project_members mine WHERE mine.member_id = :userId AND mine.is_active = true AND mine.deleted_at IS NULL)',
        { userId },
      )
      .orderBy('pm.projectId', 'ASC')
      .addOrderBy('pm.createdAt', 'ASC')
      .addOrderBy('pm.id', 'ASC')
      .getMany();
  }

  async listActiveMembersPage(projectId: string, page: PageRequest): Promise<Page<ProjectMember>> {
    const qb = this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .innerJoinAndSelect('pm.member', 'u')
      .where('pm.projectId = :projectId AND pm.isActive = true', { projectId });
    return paginate(qb, page);
  }

  /** How many active Admins the project has besides `userId`. */
  async countOtherActiveAdmins(em: EntityManager, projectId: string, userId: string): Promise<number> {
    return em
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .where('pm.projectId = :projectId AND pm.isActive = true AND pm.role = :admin AND pm.memberId <> :userId', {
        projectId,
        admin: ROLE.ADMIN,
        userId,
      })
      .getCount();
  }

  /** Per project of `projectIds`: its active members' count, and `userId`'s role and `sort_order` (null when not a member). */
  async memberStats(
    projectIds: string[],
    userId: string,
  ): Promise<Array<{ project_id: string; total: number; role: number | null; sort_order: number | null }>> {
    return this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .select('pm.projectId', 'project_id')
      .addSelect('COUNT(*)::int', 'total')
      .addSelect('MAX(CASE WHEN pm.memberId = :userId THEN pm.role END)::int', 'role')
      .addSelect('MIN(CASE WHEN pm.memberId = :userId THEN pm.sortOrder END)', 'sort_order')
      .where('pm.projectId IN (:...projectIds)', { projectIds })
      .andWhere('pm.isActive = true')
      .setParameter('userId', userId)
      .groupBy('pm.projectId')
      .getRawMany<{ project_id: string; total: number; role: number | null; sort_order: number | null }>();
  }

  /** The projects of `projectIds` that have a live deploy board (published, see DeployBoardService). */
  async withLiveDeployBoard(projectIds: string[]): Promise<Array<{ project_id: string }>> {
    return this.dataSource
      .createQueryBuilder()
      .select('b.project_id', 'project_id')
      .from('deploy_boards', 'b')
      .where('b.project_id IN (:...projectIds) AND b.deleted_at IS NULL', { projectIds })
      .getRawMany<{ project_id: string }>();
  }

  /** Per project of `projectIds` (non-empty): how many live rows of `table` (cycles or modules, archived ones included) it has. */
  async countLive(
    table: 'cycles' | 'modules',
    projectIds: string[],
  ): Promise<Array<{ project_id: string; n: number | string }>> {
    const params = projectIds.map((_, n) => `$${n + 1}`).join(', ');
    return this.dataSource.query(
      `SELECT project_id, COUNT(*) AS n FROM ${table} WHERE deleted_at IS NULL AND project_id IN (${params}) GROUP BY project_id`,
      projectIds,
    );
  }

  /**
   * For each project of `projectIds`: its active members who are not bots (sorted), its live deploy
   * board's anchor, `userId`'s own `sort_order` and whether `userId` has it among their favourites
   * (Plane's `ProjectViewSet` annotations), in one statement. The deploy board and favourite rooms
   * sit above this one: their tables are read by name.
   */
  async appExtras(
    projectIds: string[],
    userId: string,
  ): Promise<
    Array<{
      project_id: string;
      members: string[] | string | null;
      anchor: string | null;
      sort_order: number | string | null;
      is_favorite: boolean;
    }>
  > {
    if (!projectIds.length) return [];
    const params = projectIds.map((_, n) => `$${n + 2}`).join(', ');
    return this.dataSource.query(
      `SELECT p.id AS project_id,
         ARRAY(SELECT pm.member_id FROM project_members pm JOIN users u ON u.id = pm.member_id AND u.is_bot = false
                WHERE pm.project_id = p.id AND pm.is_active = true ORDER BY pm.member_id) AS members,
         (SELECT b.anchor FROM deploy_boards b WHERE b.project_id = p.id AND b.deleted_at IS NULL LIMIT 1) AS anchor,
         (SELECT pm.sort_order FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = $1 AND pm.is_active = true LIMIT 1) AS sort_order,
         EXISTS (SELECT 1 FROM user_favorites f WHERE f.user_id = $1 AND f.entity_type = 'project'
                   AND f.entity_identifier = p.id AND f.deleted_at IS NULL) AS is_favorite
       FROM projects p WHERE p.id IN (${params})`,
      [userId, ...projectIds],
    );
  }

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live project with this id in the workspace (`findOneBy`), or null. */
  findOne(em: EntityManager, workspaceId: string, projectId: string): Promise<Project | null> {
    return em.getRepository(Project).findOneBy({ id: projectId, workspaceId });
  }

  /** The live project with this id; throws TypeORM's `EntityNotFoundError` when there is none. */
  findByIdOrFail(em: EntityManager, projectId: string): Promise<Project> {
    return em.getRepository(Project).findOneByOrFail({ id: projectId });
  }

  /** The workspace's live projects among `ids`, only the public ones with `publicOnly`. */
  findManyInWorkspace(em: EntityManager, workspaceId: string, ids: string[], publicOnly: boolean): Promise<Project[]> {
    const where: FindOptionsWhere<Project> = publicOnly
      ? { workspaceId, id: In(ids), network: NETWORK.PUBLIC }
      : { workspaceId, id: In(ids) };
    return em.getRepository(Project).findBy(where);
  }

  /** The workspace's live projects holding `identifier` (as stored): `{id, identifier}` only. */
  findByIdentifier(workspaceId: string, identifier: string): Promise<Project[]> {
    return this.dataSource
      .getRepository(Project)
      .find({ select: { id: true, identifier: true }, where: { workspaceId, identifier } });
  }

  /** Whether a live project of the workspace holds `identifier`. */
  identifierHeld(workspaceId: string, identifier: string): Promise<boolean> {
    return this.dataSource.getRepository(Project).exists({ where: { workspaceId, identifier } });
  }

  /** Inserts the project row (`save`: the returned entity has its generated columns). */
  insertProject(em: EntityManager, row: Partial<Project>): Promise<Project> {
    return em.save(em.create(Project, row));
  }

  /** Updates the project row (the data source's manager without `em`). */
  async updateProject(em: EntityManager | null, projectId: string, patch: Partial<Project>): Promise<void> {
    await (em ?? this.dataSource.manager).getRepository(Project).update({ id: projectId }, patch as never);
  }

  /** Soft-deletes the project (`deleted_at` = `now`) and its live memberships (inactive too). */
  async softDelete(em: EntityManager, projectId: string, userId: string, now: Date): Promise<void> {
    await em.update(Project, { id: projectId }, { updatedById: userId, deletedAt: now });
    await em.update(ProjectMember, { projectId, deletedAt: IsNull() }, { deletedAt: now, isActive: false });
  }

  /** One membership by `where` (any state unless `where` says), with its user when `withMember`. */
  findMember(
    em: EntityManager,
    where: FindOptionsWhere<ProjectMember>,
    withMember = false,
  ): Promise<ProjectMember | null> {
    return withMember
      ? em.getRepository(ProjectMember).findOne({ where, relations: { member: true } })
      : em.getRepository(ProjectMember).findOne({ where });
  }

  /** The memberships among `ids` (the data source's manager). */
  membersByIds(ids: string[]): Promise<ProjectMember[]> {
    return this.dataSource.getRepository(ProjectMember).findBy({ id: In(ids) });
  }

  /** The membership by id; throws TypeORM's `EntityNotFoundError` when gone. */
  memberByIdOrFail(em: EntityManager, id: string): Promise<ProjectMember> {
    return em.getRepository(ProjectMember).findOneByOrFail({ id });
  }

  /** Saves a loaded membership's changed columns (`save`; outside a transaction without `em`). */
  saveMember(em: EntityManager | null, row: ProjectMember): Promise<ProjectMember> {
    return (em ?? this.dataSource.manager).getRepository(ProjectMember).save(row);
  }

  /** Inserts a membership row (`save` of a created entity: the returned row has its generated columns). */
  createMember(em: EntityManager, row: Partial<ProjectMember>): Promise<ProjectMember> {
    const repo = em.getRepository(ProjectMember);
    return repo.save(repo.create(row));
  }

  /** Inserts a membership row (`insert`). */
  async insertMember(em: EntityManager, row: Partial<ProjectMember>): Promise<void> {
    await em.insert(ProjectMember, row as never);
  }

  /** Updates one membership row. */
  async updateMember(em: EntityManager, id: string, patch: Partial<ProjectMember>): Promise<void> {
    await em.update(ProjectMember, { id }, patch as never);
  }

  // ---- reads for the rooms above (through ProjectService and ProjectMemberService)

  /**
   * The project's active member, live cycle and live module counts, `actorId`'s role in it (null
   * when not an active member) and whether it has a live deploy board, in one statement (the cycle,
   * module and deploy-board rooms' tables read by name: they sit above this one).
   */
  async representationCounts(em: EntityManager, projectId: string, actorId: string | null) {
    const [row] = await em.query(
      `SELECT (SELECT COUNT(*) FROM project_members WHERE project_id = $1 AND is_active)::int AS total_members,
              (SELECT COUNT(*) FROM cycles WHERE project_id = $1 AND deleted_at IS NULL)::int AS total_cycles,
              (SELECT COUNT(*) FROM modules WHERE project_id = $1 AND deleted_at IS NULL)::int AS total_modules,
              (SELECT MAX(role) FROM project_members WHERE project_id = $1 AND member_id = $2 AND is_active)::int AS member_role,
              EXISTS (SELECT 1 FROM deploy_boards WHERE project_id = $1 AND deleted_at IS NULL) AS is_deployed`,
      [projectId, actorId],
    );
    return {
      total_members: Number(row.total_members),
      total_cycles: Number(row.total_cycles),
      total_modules: Number(row.total_modules),
      member_role: row.member_role === null ? null : Number(row.member_role),
      is_deployed: !!row.is_deployed,
    };
  }

  /** Whether the live project `id` is archived (false for a deleted or unknown one). */
  isArchived(em: EntityManager, id: string): Promise<boolean> {
    return em.getRepository(Project).exists({ where: { id, archivedAt: Not(IsNull()) } });
  }

  /** The live project `id` (in `em`'s transaction), or null. */
  findLive(em: EntityManager, id: string): Promise<Project | null> {
    return em.getRepository(Project).findOneBy({ id });
  }

  /** The live, unarchived projects of the workspace among `ids`, by name. */
  unarchivedByIds(workspaceId: string, ids: string[]): Promise<Project[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.dataSource.getRepository(Project).find({
      where: { workspaceId, id: In(ids), archivedAt: IsNull() },
      order: { name: 'ASC', id: 'ASC' },
    });
  }

  /** The project's active memberships, oldest first. */
  activeMembers(projectId: string): Promise<ProjectMember[]> {
    return this.dataSource
      .getRepository(ProjectMember)
      .find({ where: { projectId, isActive: true }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The project `id`, deleted or not (in `em`'s transaction), or null. */
  findWithDeleted(em: EntityManager, id: string): Promise<Project | null> {
    return em.getRepository(Project).findOne({ where: { id }, withDeleted: true });
  }

  /** Which of `userIds` are active members of the project (in `em`'s transaction). */
  async activeMemberIdsAmong(em: EntityManager, projectId: string, userIds: string[]): Promise<string[]> {
    if (!userIds.length) return [];
    const rows = await em
      .getRepository(ProjectMember)
      .find({ select: { memberId: true }, where: { projectId, memberId: In(userIds), isActive: true } });
    return rows.map((m) => m.memberId);
  }

  /** The user ids of the project's active members (whatever their role, in no order). */
  async activeMemberIds(projectId: string): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(ProjectMember)
      .find({ where: { projectId, isActive: true }, select: { memberId: true } });
    return rows.map((r) => r.memberId);
  }

  /** Those of `ids` who are active members of the project with role ≥ `minRole` (may repeat). */
  async activeMemberIdsWithRole(
    em: EntityManager,
    projectId: string,
    ids: string[],
    minRole: number,
  ): Promise<string[]> {
    const rows = await em
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .select('pm.memberId', 'id')
      .where('pm.projectId = :projectId AND pm.memberId IN (:...ids) AND pm.isActive = true AND pm.role >= :role', {
        projectId,
        ids,
        role: minRole,
      })
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  /** `userId`'s role in the live, unarchived project of the workspace, if an active member; else undefined. */
  async activeRoleInOpenProject(workspaceId: string, projectId: string, userId: string): Promise<number | undefined> {
    const row = await this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .innerJoin(Project, 'p', 'p.id = pm.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .where('pm.projectId = :projectId AND pm.memberId = :userId AND pm.isActive = true', { projectId, userId })
      .andWhere('p.workspaceId = :workspaceId', { workspaceId })
      .select('pm.role', 'role')
      .getRawOne<{ role: number }>();
    return row ? Number(row.role) : undefined;
  }

  /**
   * `userId`'s active role in the live project (archived or not) of the workspace: `undefined` when
   * there is no such project, null when they are not an active member of it.
   */
  async roleInLiveProject(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    userId: string,
  ): Promise<number | null | undefined> {
    return (await this.liveProjectWithRole(em, workspaceId, projectId, userId))?.role;
  }

  /**
   * The live project of the workspace (archived or not): whether it is archived and `userId`'s
   * active role there (null when not an active member); undefined when there is no such project.
   */
  async liveProjectWithRole(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    userId: string,
  ): Promise<{ archived: boolean; role: number | null } | undefined> {
    const rows: Array<{ archived: boolean; role: number | null }> = await em.query(
      `SELECT p.archived_at IS NOT NULL AS archived, pm.role FROM projects p
       LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $3 AND pm.is_active = true AND pm.deleted_at IS NULL
       WHERE p.id = $2 AND p.workspace_id = $1 AND p.deleted_at IS NULL LIMIT 1`,
      [workspaceId, projectId, userId],
    );
    if (rows.length === 0) return undefined;
    return { archived: rows[0].archived === true, role: rows[0].role === null ? null : Number(rows[0].role) };
  }

  /** The project's `cover_image` (null when the project is deleted or gone). */
  async coverImage(em: EntityManager, id: string): Promise<string | null> {
    const row = await em.getRepository(Project).findOne({ where: { id }, select: { id: true, coverImage: true } });
    return row?.coverImage ?? null;
  }

  /** Sets the project's `cover_image`; `onlyIf`: only while it still holds that URL. */
  async setCoverImage(em: EntityManager, id: string, url: string | null, onlyIf?: string): Promise<void> {
    await em
      .getRepository(Project)
      .update(onlyIf === undefined ? { id } : { id, coverImage: onlyIf }, { coverImage: url });
  }

  // ---- memberships as the auth room's deactivation changes them (through ProjectMemberService) ----

  /** Makes `userId`'s active project memberships inactive (in `em`'s transaction). */
  async deactivateMembershipsOf(em: EntityManager, userId: string): Promise<void> {
    await em.update(ProjectMember, { memberId: userId, isActive: true }, { isActive: false });
  }

  /** Whether `userId` is the only active Admin (20) of a project that has other active members. */
  isSoleAdminOfAny(em: EntityManager, userId: string): Promise<boolean> {
    return isSoleAdminOfAny(em, 'project_members', userId);
  }

  // ---- memberships and projects as the member room needs them

  /** The project's active memberships with their users (joined by relation), by display name then user id. */
  activeMembersByName(projectId: string): Promise<ProjectMember[]> {
    return this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .innerJoinAndSelect('pm.member', 'u')
      .where('pm.projectId = :projectId AND pm.isActive = true', { projectId })
      .orderBy('u.displayName', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
  }

  /** Lowers to `role` every live project membership of `memberId` in the workspace whose role is above it. */
  async lowerRolesAbove(
    em: EntityManager,
    workspaceId: string,
    memberId: string,
    role: number,
    actorId: string,
  ): Promise<void> {
    await em
      .createQueryBuilder()
      .update(ProjectMember)
      .set({ role, updatedById: actorId })
      .where('workspaceId = :workspaceId AND memberId = :memberId AND role > :role AND deletedAt IS NULL', {
        workspaceId,
        memberId,
        role,
      })
      .execute();
  }

  /** `userId`'s active memberships of the workspace's live projects, with user and project, oldest first. */
  activeMembershipsOfUser(em: EntityManager, workspaceId: string, userId: string): Promise<ProjectMember[]> {
    return em.getRepository(ProjectMember).find({
      where: { workspaceId, memberId: userId, isActive: true, project: { deletedAt: IsNull() } },
      relations: { member: true, project: true },
      order: { createdAt: 'ASC' },
    });
  }

  /** Deactivates every project membership of `userId` in the workspace. */
  async deactivateMembershipsInWorkspace(
    em: EntityManager,
    workspaceId: string,
    userId: string,
    actorId: string,
  ): Promise<void> {
    await em.update(ProjectMember, { workspaceId, memberId: userId }, { isActive: false, updatedById: actorId });
  }

  /** Soft-deletes the workspace's live projects with `now`. */
  async softDeleteAllInWorkspace(em: EntityManager, workspaceId: string, userId: string, now: Date): Promise<void> {
    await em.update(Project, { workspaceId, deletedAt: IsNull() }, { deletedAt: now, updatedById: userId });
  }

  /** The projects among `ids`, deleted ones too, in no order. */
  withDeletedByIds(ids: string[]): Promise<Project[]> {
    return this.dataSource.getRepository(Project).find({ where: { id: In(ids) }, withDeleted: true });
  }

  /** The workspace's live, unarchived projects `userId` is an active member of, oldest first. */
  openProjectsOfMember(workspaceId: string, userId: string): Promise<Project[]> {
    return this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.workspaceId = :workspaceId AND p.archivedAt IS NULL', { workspaceId })
      .andWhere(
        `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = :userId
          AND pm.is_active = true AND pm.deleted_at IS NULL)`,
        { userId },
      )
      .orderBy('p.createdAt', 'ASC')
      .getMany();
  }

  /** The live projects among `ids` (any workspace, archived or not), in no order. */
  liveByIds(ids: string[]): Promise<Project[]> {
    return this.dataSource.getRepository(Project).find({ where: { id: In(ids) } });
  }

  /** The live project `id`; throws TypeORM's `EntityNotFoundError` when there is none. */
  liveOrFail(em: EntityManager, id: string): Promise<Project> {
    return em.getRepository(Project).findOneByOrFail({ id });
  }

  /** Live projects (archived ones too) per workspace id of `workspaceIds` (non-empty; ids without projects are absent). */
  async liveCountsByWorkspace(workspaceIds: string[]): Promise<Map<string, number>> {
    const rows = await this.dataSource
      .getRepository(Project)
      .createQueryBuilder('x')
      .select('x.workspaceId', 'id')
      .addSelect('COUNT(*)::int', 'n')
      .where('x.workspaceId IN (:...ids)', { ids: workspaceIds })
      .groupBy('x.workspaceId')
      .getRawMany<{ id: string; n: number }>();
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  }

  // ---- the import's dedupe reads (through the service's door)

  /** `external_id` → id of the workspace's live projects that came from `source` (`external_source`). */
  externalIds(
    workspaceId: string,
    source: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string>> {
    return externalIdMap(em, Project, 'workspace_id', workspaceId, source);
  }

  // ---- the daily automation and the exports (through ProjectService)

  /**
   * A page of the live, unarchived projects (in live workspaces: the workspace room's table read
   * by name) whose `archive_in` / `close_in` (`kind`) is above 0, ordered by id after `afterId`.
   */
  automatedPage(kind: 'archive' | 'close', afterId: string | null, limit: number): Promise<AutomatedProject[]> {
    const months = kind === 'archive' ? 'p.archive_in' : 'p.close_in';
    return this.dataSource.query(
      `SELECT p.id, p.workspace_id, p.created_by_id, ${months} AS months, p.default_state_id
       FROM projects p JOIN workspaces w ON w.id = p.workspace_id AND w.deleted_at IS NULL
       WHERE p.deleted_at IS NULL AND p.archived_at IS NULL AND ${months} > 0
         AND ($1::uuid IS NULL OR p.id > $1::uuid)
       ORDER BY p.id LIMIT $2`,
      [afterId, limit],
    );
  }

  /** Which of `ids` are live projects of the workspace (archived ones included). */
  async liveIdsInWorkspace(workspaceId: string, ids: string[]): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      'SELECT id::text AS id FROM projects WHERE workspace_id = $1 AND deleted_at IS NULL AND id = ANY($2::uuid[])',
      [workspaceId, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * The live, unarchived projects of the workspace `userId` is an active member of (among
   * `projectIds` when given), by identifier.
   */
  async openIdsOfMember(workspaceId: string, userId: string, projectIds: string[] | null): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT p.id::text AS id FROM projects p
       JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $2 AND pm.is_active = true AND pm.deleted_at IS NULL
       WHERE p.workspace_id = $1 AND p.deleted_at IS NULL AND p.archived_at IS NULL
         AND ($3::uuid[] IS NULL OR p.id = ANY($3::uuid[]))
       ORDER BY p.identifier`,
      [workspaceId, userId, projectIds],
    );
    return rows.map((r) => r.id);
  }

  // ---- searches (the search room's `search/` and `entity-search/`, through ProjectService and ProjectMemberService)

  /**
   * `userId`'s unarchived projects of the workspace (active membership) whose name or identifier
   * contains `q`, newest first, at most `limit`: `{name, id, identifier, workspace__slug}` (the
   * workspace room's `workspaces` joined by entity name for the slug). With `batch`, sent in it
   * (the search room's `ReadBatch`).
   */
  searchOfMember(workspaceId: string, userId: string, q: string, limit: number, batch?: ReadBatch): Promise<unknown[]> {
    const text = `SELECT p.name, p.id, p.identifier, w.slug AS workspace__slug FROM projects p
JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $1 AND pm.is_active = true AND pm.deleted_at IS NULL
JOIN workspaces w ON w.id = p.workspace_id AND w.deleted_at IS NULL
WHERE p.workspace_id = $2 AND p.archived_at IS NULL AND p.deleted_at IS NULL
AND (p.name ILIKE $3 ESCAPE '\\' OR p.identifier ILIKE $3 ESCAPE '\\')
ORDER BY p.created_at DESC LIMIT $4`;
    return readIn(batch, this.dataSource, text, [userId, workspaceId, likeContaining(q), limit]);
  }

  /**
   * The workspace's unarchived projects `userId` is an active member of, and the public ones
   * (`network` 2) when `withPublic`; `q` (when given) in the name or identifier; newest first, at
   * most `limit`: `{name, id, identifier, logo_props, workspace__slug}`. With `batch`, sent in it.
   */
  mentionable(
    workspaceId: string,
    userId: string,
    withPublic: boolean,
    q: string,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    const member = `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = $2
AND pm.is_active = true AND pm.deleted_at IS NULL)`;
    const text = `SELECT p.name, p.id, p.identifier, p.logo_props, w.slug AS workspace__slug FROM projects p
JOIN workspaces w ON w.id = p.workspace_id AND w.deleted_at IS NULL
WHERE p.workspace_id = $1 AND p.archived_at IS NULL AND p.deleted_at IS NULL
AND ${withPublic ? `(${member} OR p.network = ${NETWORK.PUBLIC})` : member}${
      q ? ` AND (p.name ILIKE $4 ESCAPE '\\' OR p.identifier ILIKE $4 ESCAPE '\\')` : ''
    }
ORDER BY p.created_at DESC, p.id DESC LIMIT $3`;
    const values = [workspaceId, userId, limit];
    return readIn(batch, this.dataSource, text, q ? [...values, likeContaining(q)] : values);
  }

  /**
   * The project's active members above Guest (role > 10) and, with `issueCreatorId`, that user too
   * (Plane's `role__gt=10 | member_id=issue_created_by`), not bots, newest membership first, at
   * most `limit`, `q` (when given) in the first, last or display name: `{member__avatar_url,
   * member__display_name, member__id}` (the user room's `users` joined by entity name). With
   * `batch`, sent in it.
   */
  mentionableMembers(
    projectId: string,
    issueCreatorId: string | null | undefined,
    q: string,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    const values: unknown[] = [projectId, limit];
    const role = issueCreatorId ? `(m.role > 10 OR m.member_id = $${values.push(issueCreatorId)})` : 'm.role > 10';
    const like = q ? `$${values.push(likeContaining(q))}` : '';
    const named = q
      ? ` AND (u.first_name ILIKE ${like} ESCAPE '\\' OR u.last_name ILIKE ${like} ESCAPE '\\' OR u.display_name ILIKE ${like} ESCAPE '\\')`
      : '';
    const text = `SELECT u.avatar AS member__avatar_url, u.display_name AS member__display_name, u.id AS member__id
FROM project_members m JOIN users u ON u.id = m.member_id AND u.is_bot = false
WHERE m.project_id = $1 AND m.is_active = true AND m.deleted_at IS NULL AND ${role}${named}
ORDER BY m.created_at DESC, m.id DESC LIMIT $2`;
    return readIn(batch, this.dataSource, text, values);
  }
}
