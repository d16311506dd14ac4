import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { User } from '../user';
import { Workspace, WorkspaceMember } from '../workspace';
import { WorkspaceInvitation } from './workspace-invitation.entity';

/**
 * The invitations to `email` (normalised) that were accepted through their link, in live workspaces.
 * A function of `em` alone, for `joinAcceptedInvitations`, which runs in a session's transaction
 * without the injected repository.
 */
export function findAcceptedForEmail(em: EntityManager, email: string): Promise<WorkspaceInvitation[]> {
  return em
    .getRepository(WorkspaceInvitation)
    .createQueryBuilder('i')
    .innerJoin('i.workspace', 'w')
    .where('i.email = :email AND i.accepted = true', { email })
    .andWhere('w.deletedAt IS NULL')
    .getMany();
}

/** Updates one invitation in `em`'s transaction (a function of `em` alone, as `findAcceptedForEmail`). */
export async function updateInvitation(
  em: EntityManager,
  id: string,
  patch: Partial<Pick<WorkspaceInvitation, 'accepted' | 'respondedAt' | 'deletedAt' | 'role' | 'updatedById'>>,
): Promise<void> {
  await em.update(WorkspaceInvitation, { id }, patch);
}

/** All SQL of the invitation feature. */
@Injectable()
export class InvitationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The emails among `emails` (non-empty) that belong to active members of the workspace. */
  async activeMemberEmails(workspaceId: string, emails: string[]): Promise<Array<{ email: string }>> {
    return this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('m')
      .innerJoin(User, 'u', 'u.id = m.memberId')
      .select('u.email', 'email')
      .where('m.workspaceId = :workspaceId AND m.isActive = true AND u.email IN (:...emails)', { workspaceId, emails })
      .getRawMany<{ email: string }>();
  }

  /** A page of the workspace's live invitations, oldest first. */
  async listPageInWorkspace(workspaceId: string, page: PageRequest): Promise<Page<WorkspaceInvitation>> {
    const qb = this.dataSource
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .where('i.workspaceId = :workspaceId', { workspaceId });
    return paginate(qb, page);
  }

  /** A page of the live invitations to `email` (normalised) in live workspaces, pending or accepted, with their workspace; oldest first. */
  async listPageForEmail(email: string, page: PageRequest): Promise<Page<WorkspaceInvitation>> {
    const qb = this.dataSource
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .innerJoinAndSelect('i.workspace', 'w')
      .where('i.email = :email', { email })
      .andWhere('w.deletedAt IS NULL')
      .andWhere('(i.respondedAt IS NULL OR i.accepted = true)');
    return paginate(qb, page);
  }

  /** The live invitations of `ids` to `email` (normalised) in live workspaces, pending or accepted. */
  async findPendingOrAcceptedForEmail(em: EntityManager, ids: string[], email: string): Promise<WorkspaceInvitation[]> {
    return em
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .innerJoin('i.workspace', 'w')
      .where('i.id IN (:...ids) AND i.email = :email', { ids, email })
      .andWhere('w.deletedAt IS NULL')
      .andWhere('(i.respondedAt IS NULL OR i.accepted = true)')
      .getMany();
  }

  /** The live invitation `id` of the live workspace `slug` whose token has this SHA-256 `digest`, with its workspace; or null. */
  async findByLink(slug: string, id: string, digest: string): Promise<WorkspaceInvitation | null> {
    return this.dataSource
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .innerJoinAndSelect('i.workspace', 'w')
      .where('i.id = :id AND w.slug = :slug AND i.tokenDigest = :digest', { id, slug, digest })
      .andWhere('w.deletedAt IS NULL')
      .getOne();
  }

  /** The live workspace; throws TypeORM's `EntityNotFoundError` when there is none. */
  workspaceOrFail(workspaceId: string): Promise<Workspace> {
    return this.dataSource.getRepository(Workspace).findOneByOrFail({ id: workspaceId });
  }

  /** The workspace's live invitations to any of `emails`. */
  findForEmails(em: EntityManager, workspaceId: string, emails: string[]): Promise<WorkspaceInvitation[]> {
    return em.getRepository(WorkspaceInvitation).findBy({ workspaceId, email: In(emails) });
  }

  /** Saves a created or merged invitation (`save`: an insert or an update of its changed columns). */
  save(em: EntityManager, invitation: WorkspaceInvitation): Promise<WorkspaceInvitation> {
    return em.save(invitation);
  }

  /** Updates one invitation (outside a transaction without `em`). */
  async update(
    em: EntityManager | null,
    id: string,
    patch: Partial<Pick<WorkspaceInvitation, 'accepted' | 'respondedAt' | 'deletedAt' | 'role' | 'updatedById'>>,
  ): Promise<void> {
    if (em) await updateInvitation(em, id, patch);
    else await this.dataSource.getRepository(WorkspaceInvitation).update({ id }, patch);
  }

  /** The workspace's live invitation `id` with its workspace, or null. */
  findInWorkspace(workspaceId: string, id: string): Promise<WorkspaceInvitation | null> {
    return this.dataSource
      .getRepository(WorkspaceInvitation)
      .findOne({ where: { id, workspaceId }, relations: { workspace: true } });
  }

  /** The active user with this email (as stored), or null. */
  activeUserByEmail(em: EntityManager, email: string): Promise<User | null> {
    return em.getRepository(User).findOneBy({ email, isActive: true });
  }

  // ---- invitations as the auth room's sign-in and deactivation read and change them ----

  /** Whether a live, unanswered invitation to `email` (as stored) exists. */
  hasPendingFor(email: string): Promise<boolean> {
    return this.dataSource
      .getRepository(WorkspaceInvitation)
      .existsBy({ email, accepted: false, respondedAt: IsNull() });
  }

  /** Soft-deletes the invitations to `email` (as stored), in `em`'s transaction. */
  async softDeleteTo(em: EntityManager, email: string): Promise<void> {
    await em.softDelete(WorkspaceInvitation, { email });
  }
}
