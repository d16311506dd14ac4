import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { hotRead } from '../kernel/hot-query';
import { WorkspaceMember } from './workspace-member.entity';
import { Workspace } from './workspace.entity';
import { SQL_WORKSPACE_ACCESS } from './workspace.sql';

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

  /** The live workspace with this slug, or null. */
  findLiveBySlug(slug: string): Promise<Workspace | null> {
    return this.dataSource.getRepository(Workspace).findOneBy({ slug });
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
  slugTaken(slug: string): Promise<boolean> {
    return this.dataSource
      .getRepository(Workspace)
      .createQueryBuilder('w')
      .withDeleted()
      .where('LOWER(w.slug) = LOWER(:slug)', { slug })
      .getExists();
  }

  /** Whether `userId` is an active member of the workspace (in `em`'s transaction). */
  isActiveMember(em: EntityManager, workspaceId: string, userId: string): Promise<boolean> {
    return em.getRepository(WorkspaceMember).exists({ where: { workspaceId, memberId: userId, isActive: true } });
  }

  /** Whether any live workspace exists (in `em`'s transaction). */
  anyLive(em: EntityManager): Promise<boolean> {
    return em.getRepository(Workspace).exists();
  }
}
