import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { WorkspaceInvitation } from './workspace-invitation.entity';

/**
 * The invitations to `email` (normalised) that were accepted through their link, in live workspaces
 * (the workspace joined by the invitation's relation, in this one statement). A function of `em`
 * alone, for `joinAcceptedInvitations`, which runs in a session's transaction without the injected
 * repository.
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

  /** A page of the workspace's live invitations, oldest first. */
  async listPageInWorkspace(workspaceId: string, page: PageRequest): Promise<Page<WorkspaceInvitation>> {
    const qb = this.dataSource
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .where('i.workspaceId = :workspaceId', { workspaceId });
    return paginate(qb, page);
  }

  /**
   * A page of the live invitations to `email` (normalised) in live workspaces, pending or accepted,
   * with their workspace (joined by the invitation's relation in this one paginated statement); oldest first.
   */
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

  /** The live invitations of `ids` to `email` (normalised), pending or accepted (their workspaces live or not). */
  findPendingOrAcceptedForEmail(em: EntityManager, ids: string[], email: string): Promise<WorkspaceInvitation[]> {
    return em
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .where('i.id IN (:...ids) AND i.email = :email', { ids, email })
      .andWhere('(i.respondedAt IS NULL OR i.accepted = true)')
      .getMany();
  }

  /** The workspace's live invitation `id` whose token has this SHA-256 `digest`, or null. */
  findByDigest(workspaceId: string, id: string, digest: string): Promise<WorkspaceInvitation | null> {
    return this.dataSource.getRepository(WorkspaceInvitation).findOneBy({ id, workspaceId, tokenDigest: digest });
  }

  /** How many unanswered live invitations of live workspaces (joined by the invitation's relation) go to `email`. */
  countPendingForEmail(em: EntityManager, email: string): Promise<number> {
    return em
      .getRepository(WorkspaceInvitation)
      .createQueryBuilder('i')
      .innerJoin('i.workspace', 'w')
      .where('i.email = :email AND i.respondedAt IS NULL', { email })
      .andWhere('w.deletedAt IS NULL')
      .getCount();
  }

  /** Soft-deletes the workspace's live invitations with `now`. */
  async deleteAllInWorkspace(em: EntityManager, workspaceId: string, now: Date): Promise<void> {
    await em.update(WorkspaceInvitation, { workspaceId, deletedAt: IsNull() }, { deletedAt: now });
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

  /** The workspace's live invitation `id`, or null. */
  findInWorkspace(workspaceId: string, id: string): Promise<WorkspaceInvitation | null> {
    return this.dataSource.getRepository(WorkspaceInvitation).findOneBy({ id, workspaceId });
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
