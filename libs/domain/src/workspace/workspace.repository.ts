import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
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

  /** Whether `userId` is an active member of the live workspace `workspaceId`. */
  async isActiveMember(workspaceId: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
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
  async isSoleAdminOfAny(em: EntityManager, userId: string): Promise<boolean> {
    const rows = await em.query<unknown[]>(
      `SELECT 1 FROM workspace_members me
        WHERE me.member_id = $1 AND me.is_active = true AND me.deleted_at IS NULL AND me.role = 20
          AND NOT EXISTS (SELECT 1 FROM workspace_members o WHERE o.workspace_id = me.workspace_id AND o.member_id <> $1
            AND o.is_active = true AND o.deleted_at IS NULL AND o.role = 20)
          AND EXISTS (SELECT 1 FROM workspace_members o WHERE o.workspace_id = me.workspace_id AND o.member_id <> $1
            AND o.is_active = true AND o.deleted_at IS NULL)
        LIMIT 1`,
      [userId],
    );
    return rows.length > 0;
  }
}
