import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, InsertResult, IsNull } from 'typeorm';
import { ProjectInvitation } from './project-invitation.entity';

/**
 * All SQL of the member feature: project invitations (its own table). Memberships, people, profiles,
 * projects and workspaces come through their rooms' doors (the member services call them); the one
 * read of a higher room's table, the caller's live drafts, is by table name.
 */
@Injectable()
export class MemberRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * How many live drafts `userId` created in the workspace (Plane's `draft_issue_count`): the draft
   * room is above this one, so its table is read by name (the lower-room technique).
   */
  async liveDraftCount(workspaceId: string, userId: string): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM draft_issues d
       WHERE d.workspace_id = $1 AND d.created_by_id = $2 AND d.deleted_at IS NULL`,
      [workspaceId, userId],
    )) as Array<{ n: number }>;
    return row.n;
  }

  /** A page of the project's live invitations, newest first. */
  projectInvitationsPage(projectId: string, page: PageRequest): Promise<Page<ProjectInvitation>> {
    const qb = this.dataSource
      .getRepository(ProjectInvitation)
      .createQueryBuilder('pi')
      .where('pi.projectId = :projectId', { projectId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /**
   * A page of the live invitations to `email` (lower case) of live projects, newest first: the
   * project's liveness is joined by entity name (`Project`, no import) in this one paginated statement.
   */
  projectInvitationsForEmailPage(email: string, page: PageRequest): Promise<Page<ProjectInvitation>> {
    const qb = this.dataSource
      .getRepository(ProjectInvitation)
      .createQueryBuilder('pi')
      .innerJoin('Project', 'ip', 'ip.id = pi.project_id AND ip.deleted_at IS NULL')
      .where('pi.email = :email', { email });
    return paginate(qb, page, { order: 'DESC' });
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
}
