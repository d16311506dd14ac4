import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, IsNull } from 'typeorm';
import { WorkspaceInvitation } from '../invitation';
import { ProjectMember } from '../project';
import { Profile } from '../user';
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
}
