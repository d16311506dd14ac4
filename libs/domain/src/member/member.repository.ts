import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, InsertResult, IsNull } from 'typeorm';
import { ApiToken } from '../api-token';
import { WorkspaceInvitation } from '../invitation';
import { Project, ProjectMember } from '../project';
import { Profile, User } from '../user';
import { ProjectInvitation } from './project-invitation.entity';
import { Workspace, WorkspaceMember } from '../workspace';

/** All SQL of the member feature (memberships, profiles and workspace settings as the member routes read them). */
@Injectable()
export class MemberRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The workspace's active memberships with their users, by display name then user id. */
  async activeWorkspaceMembersByName(workspaceId: string): Promise<WorkspaceMember[]> {
    return this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('wm')
      .innerJoinAndSelect('wm.member', 'u')
      .where('wm.workspaceId = :workspaceId AND wm.isActive = true', { workspaceId })
      .orderBy('u.displayName', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
  }

  /** The project's active memberships with their users, by display name then user id. */
  async activeProjectMembersByName(projectId: string): Promise<ProjectMember[]> {
    return this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .innerJoinAndSelect('pm.member', 'u')
      .where('pm.projectId = :projectId AND pm.isActive = true', { projectId })
      .orderBy('u.displayName', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
  }

  /**
   * A page of the workspace's active memberships with their users and workspace, oldest first;
   * `search` (trimmed, non-empty) matches display, first or last name, and the email when `viewerRole`
   * is Member or above.
   */
  async listActiveWorkspaceMembersPage(
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

  /** Lowers to `role` every live project membership of `memberId` in the workspace whose role is above it. */
  async lowerProjectRolesAbove(
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

  /**
   * `userId`'s own `view_props` in the workspace (null when never saved) and how many live drafts
   * they created there (Plane's `draft_issue_count`); undefined without an active membership.
   */
  async ownViewPropsAndDraftCount(
    workspaceId: string,
    userId: string,
  ): Promise<{ view_props: Record<string, unknown> | null; draft_issue_count: number } | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT m.view_props,
              (SELECT count(*)::int FROM draft_issues d
               WHERE d.workspace_id = $1 AND d.created_by_id = $2 AND d.deleted_at IS NULL) AS draft_issue_count
       FROM workspace_members m
       WHERE m.workspace_id = $1 AND m.member_id = $2 AND m.is_active = true AND m.deleted_at IS NULL`,
      [workspaceId, userId],
    )) as Array<{ view_props: Record<string, unknown> | null; draft_issue_count: number }>;
    return row;
  }

  /** Replaces `userId`'s own `view_props` in the workspace; false without an active membership. */
  async saveOwnViewProps(workspaceId: string, userId: string, viewProps: Record<string, unknown>): Promise<boolean> {
    const result = await this.dataSource.getRepository(WorkspaceMember).update(
      { workspaceId, memberId: userId, isActive: true, deletedAt: IsNull() },
      // a jsonb object: TypeORM's deep-partial type would walk into it
      { viewProps: viewProps as never, updatedById: userId },
    );
    return (result.affected ?? 0) > 0;
  }

  /** How many active Admins the workspace has besides `userId`. */
  async countOtherActiveAdmins(em: EntityManager, workspaceId: string, userId: string): Promise<number> {
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
  async oldestLiveWorkspaceOf(
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

  /** How many unanswered invitations of live workspaces go to `email`. */
  async countPendingInvitations(em: EntityManager, email: string): Promise<number> {
    return em
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .innerJoin(Workspace, 'w', 'w.id = i.workspaceId AND w.deletedAt IS NULL')
      .where('i.email = :email AND i.respondedAt IS NULL', { email })
      .getCount();
  }

  /** Creates the user's profile row unless it exists (`ON CONFLICT DO NOTHING`). */
  async insertProfileIfMissing(em: EntityManager, userId: string): Promise<void> {
    await em.createQueryBuilder().insert().into(Profile).values({ userId }).orIgnore().execute();
  }

  /** The active workspace roles of the members with these (lower-case) emails, by email. */
  async workspaceRolesByEmail(em: EntityManager, workspaceId: string, emails: string[]): Promise<Map<string, number>> {
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

  /** A page of the project's live invitations, newest first. */
  projectInvitationsPage(projectId: string, page: PageRequest): Promise<Page<ProjectInvitation>> {
    const qb = this.dataSource
      .getRepository(ProjectInvitation)
      .createQueryBuilder('pi')
      .where('pi.projectId = :projectId', { projectId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** A page of the live invitations to `email` (lower case) of live projects, newest first. */
  projectInvitationsForEmailPage(email: string, page: PageRequest): Promise<Page<ProjectInvitation>> {
    const qb = this.dataSource
      .getRepository(ProjectInvitation)
      .createQueryBuilder('pi')
      .innerJoin('Project', 'ip', 'ip.id = pi.project_id AND ip.deleted_at IS NULL')
      .where('pi.email = :email', { email });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The user with this id, or null. */
  findUser(em: EntityManager, userId: string): Promise<User | null> {
    return em.getRepository(User).findOne({ where: { id: userId } });
  }

  /** The user with this id; throws TypeORM's `EntityNotFoundError` when there is none. */
  findUserOrFail(em: EntityManager, userId: string): Promise<User> {
    return em.getRepository(User).findOneByOrFail({ id: userId });
  }

  /** `userId`'s active membership of the workspace, or null. */
  activeWorkspaceMembership(em: EntityManager, workspaceId: string, userId: string): Promise<WorkspaceMember | null> {
    return em.getRepository(WorkspaceMember).findOne({ where: { workspaceId, memberId: userId, isActive: true } });
  }

  /** Whether `userId` is an active member of the workspace. */
  isActiveWorkspaceMember(em: EntityManager, workspaceId: string, userId: string): Promise<boolean> {
    return em.getRepository(WorkspaceMember).exists({ where: { workspaceId, memberId: userId, isActive: true } });
  }

  /** `userId`'s active memberships of the workspace's live projects, with user and project, oldest first. */
  activeProjectMembershipsOf(em: EntityManager, workspaceId: string, userId: string): Promise<ProjectMember[]> {
    return em.getRepository(ProjectMember).find({
      where: { workspaceId, memberId: userId, isActive: true, project: { deletedAt: IsNull() } },
      relations: { member: true, project: true },
      order: { createdAt: 'ASC' },
    });
  }

  /** The user's profile row; throws TypeORM's `EntityNotFoundError` when there is none. */
  profileOf(em: EntityManager, userId: string): Promise<Profile> {
    return em.getRepository(Profile).findOneByOrFail({ userId });
  }

  /** The profile row by id; throws when gone. */
  profileById(em: EntityManager, id: string): Promise<Profile> {
    return em.getRepository(Profile).findOneByOrFail({ id });
  }

  /** Updates the profile row's columns in `patch`. */
  async updateProfile(em: EntityManager, id: string, patch: Record<string, unknown>): Promise<void> {
    await em.update(Profile, { id }, patch as never);
  }

  /** The workspace's active membership row with its user and workspace (`where` adds the key), or null. */
  findActiveWorkspaceMember(
    em: EntityManager,
    where: { workspaceId: string; id?: string; memberId?: string },
    withRelations = true,
  ): Promise<WorkspaceMember | null> {
    return withRelations
      ? em.getRepository(WorkspaceMember).findOne({
          where: { ...where, isActive: true },
          relations: { member: true, workspace: true },
        })
      : em.getRepository(WorkspaceMember).findOneBy({ ...where, isActive: true });
  }

  /** Sets the workspace membership row's role. */
  async setWorkspaceRole(em: EntityManager, rowId: string, role: number, actorId: string): Promise<void> {
    await em.update(WorkspaceMember, { id: rowId }, { role, updatedById: actorId });
  }

  /**
   * Deactivates `userId`'s workspace membership and every project membership of theirs in the
   * workspace, and revokes their live API keys for it for good (`deleted_at` = now).
   */
  async deactivateWorkspaceMember(em: EntityManager, workspaceId: string, userId: string, actorId: string) {
    await em.update(WorkspaceMember, { workspaceId, memberId: userId }, { isActive: false, updatedById: actorId });
    await em.update(ProjectMember, { workspaceId, memberId: userId }, { isActive: false, updatedById: actorId });
    await em.update(ApiToken, { workspaceId, userId, deletedAt: IsNull() }, { isActive: false, deletedAt: new Date() });
  }

  /** The live workspace; throws TypeORM's `EntityNotFoundError` when there is none. */
  workspaceOrFail(em: EntityManager, workspaceId: string): Promise<Workspace> {
    return em.getRepository(Workspace).findOneByOrFail({ id: workspaceId });
  }

  /** Updates the workspace row (a taken slug throws the unique violation `uq_workspaces_slug`). */
  async updateWorkspace(workspaceId: string, patch: Partial<Workspace>): Promise<void> {
    await this.dataSource.getRepository(Workspace).update({ id: workspaceId }, patch);
  }

  /**
   * Soft-deletes the workspace with `now`: the workspace, its live projects, its live API keys
   * (inactive too) and its live invitations, in this order.
   */
  async softDeleteWorkspace(em: EntityManager, workspaceId: string, userId: string, now: Date): Promise<void> {
    await em.update(Workspace, { id: workspaceId }, { deletedAt: now, updatedById: userId });
    await em.update(Project, { workspaceId, deletedAt: IsNull() }, { deletedAt: now, updatedById: userId });
    await em.update(ApiToken, { workspaceId, deletedAt: IsNull() }, { deletedAt: now, isActive: false });
    await em.update(WorkspaceInvitation, { workspaceId, deletedAt: IsNull() }, { deletedAt: now });
  }

  /** Whether any workspace, a deleted one included, holds the slug. */
  slugTaken(slug: string): Promise<boolean> {
    return this.dataSource.getRepository(Workspace).exists({ where: { slug }, withDeleted: true });
  }

  /** How many active members the workspace has. */
  countActiveWorkspaceMembers(workspaceId: string): Promise<number> {
    return this.dataSource.getRepository(WorkspaceMember).countBy({ workspaceId, isActive: true });
  }

  /** The project's invitations (live ones) to any of `emails`. */
  projectInvitationsTo(em: EntityManager, projectId: string, emails: string[]): Promise<ProjectInvitation[]> {
    return em.getRepository(ProjectInvitation).findBy({ projectId, email: In(emails) });
  }

  /** Inserts project invitations; the result's `identifiers` hold their ids in order. */
  insertProjectInvitations(em: EntityManager, rows: Array<Partial<ProjectInvitation>>): Promise<InsertResult> {
    return em.insert(ProjectInvitation, rows as never);
  }

  /** One live project invitation by its keys, or null; `lock` takes a row lock (`FOR UPDATE`) for `em`'s transaction. */
  findProjectInvitation(
    em: EntityManager,
    where: { id: string; projectId: string; workspaceId: string },
    lock = false,
  ): Promise<ProjectInvitation | null> {
    return lock
      ? em.getRepository(ProjectInvitation).findOne({ where, lock: { mode: 'pessimistic_write' } })
      : em.getRepository(ProjectInvitation).findOneBy(where);
  }

  /** Soft-deletes one project invitation. */
  async softDeleteProjectInvitation(id: string): Promise<void> {
    await this.dataSource.getRepository(ProjectInvitation).softDelete({ id });
  }

  /** The workspace's live unanswered invitations of `email` to any of `projectIds`. */
  pendingProjectInvitations(workspaceId: string, projectIds: string[], email: string): Promise<ProjectInvitation[]> {
    return this.dataSource.getRepository(ProjectInvitation).findBy({
      workspaceId,
      projectId: In(projectIds),
      email,
      respondedAt: IsNull(),
    });
  }

  /** Updates one project invitation. */
  async updateProjectInvitation(em: EntityManager, id: string, patch: Partial<ProjectInvitation>): Promise<void> {
    await em.update(ProjectInvitation, { id }, patch as never);
  }

  /** The live projects among `ids` (the data source's manager). */
  projectsByIds(ids: string[]): Promise<Project[]> {
    return this.dataSource.getRepository(Project).find({ where: { id: In(ids) } });
  }

  /** The live workspaces among `ids` (the data source's manager). */
  workspacesByIds(ids: string[]): Promise<Workspace[]> {
    return this.dataSource.getRepository(Workspace).find({ where: { id: In(ids) } });
  }

  /** The live project, or null. */
  findProject(em: EntityManager, projectId: string): Promise<Project | null> {
    return em.getRepository(Project).findOneBy({ id: projectId });
  }

  /** The live project; throws TypeORM's `EntityNotFoundError` when there is none. */
  projectOrFail(em: EntityManager, projectId: string): Promise<Project> {
    return em.getRepository(Project).findOneByOrFail({ id: projectId });
  }

  /** The live workspace with this slug, or null. */
  workspaceBySlug(em: EntityManager, slug: string): Promise<Workspace | null> {
    return em.getRepository(Workspace).findOneBy({ slug });
  }

  /** The user with this email (as stored), or null. */
  userByEmail(em: EntityManager, email: string): Promise<User | null> {
    return em.getRepository(User).findOneBy({ email });
  }

  /** `userId`'s workspace membership in any state, or null. */
  workspaceMembership(em: EntityManager, workspaceId: string, userId: string): Promise<WorkspaceMember | null> {
    return em.getRepository(WorkspaceMember).findOneBy({ workspaceId, memberId: userId });
  }
}
