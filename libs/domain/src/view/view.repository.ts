import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { IssueView, VIEW_ACCESS } from './issue-view.entity';

/**
 * Which views a caller sees: those of the workspace (`projectId` null) or of one project, public
 * or their own; with `ownOnly` (a Guest, as Plane), only their own.
 */
export interface ViewVisibility {
  workspaceId: string;
  projectId: string | null;
  userId: string;
  ownOnly: boolean;
}

/** The columns a workspace view list may be ordered by (Plane's `order_by`, default `-created_at`). */
export const VIEW_ORDER_COLUMNS = {
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  name: 'name',
  sort_order: 'sortOrder',
};
export type ViewOrderKey = keyof typeof VIEW_ORDER_COLUMNS;

/** All of the view feature's SQL. */
@Injectable()
export class ViewRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private visible(em: EntityManager, v: ViewVisibility): SelectQueryBuilder<IssueView> {
    const qb = em
      .getRepository(IssueView)
      .createQueryBuilder('v')
      .where('v.workspaceId = :ws', { ws: v.workspaceId })
      .andWhere('(v.ownedById = :me OR v.access = :public)', { me: v.userId, public: VIEW_ACCESS.PUBLIC });
    if (v.projectId === null) qb.andWhere('v.projectId IS NULL');
    else qb.andWhere('v.projectId = :project', { project: v.projectId });
    if (v.ownOnly) qb.andWhere('v.ownedById = :me');
    return qb;
  }

  /** The views the caller sees, in `order` (then newest first). */
  list(v: ViewVisibility, order: ViewOrderKey = 'created_at', desc = true): Promise<IssueView[]> {
    return this.visible(this.dataSource.manager, v)
      .orderBy(`v.${VIEW_ORDER_COLUMNS[order]}`, desc ? 'DESC' : 'ASC')
      .addOrderBy('v.createdAt', 'DESC')
      .addOrderBy('v.id', 'DESC')
      .getMany();
  }

  /** One live view the caller sees, or null; `lock` takes a row lock for an update in `em`'s transaction. */
  findVisible(em: EntityManager, v: ViewVisibility, id: string, lock = false): Promise<IssueView | null> {
    const qb = this.visible(em, v).andWhere('v.id = :id', { id });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** The largest `sort_order` of the project's live views (the workspace's, for `projectId` null), or null. */
  async largestSortOrder(em: EntityManager, workspaceId: string, projectId: string | null): Promise<number | null> {
    const rows = await em.query<Array<{ max: number | null }>>(
      `SELECT MAX(sort_order) AS max FROM issue_views
        WHERE workspace_id = $1 AND deleted_at IS NULL AND ${projectId === null ? 'project_id IS NULL' : 'project_id = $2'}`,
      projectId === null ? [workspaceId] : [workspaceId, projectId],
    );
    const max = rows[0]?.max;
    return max === null || max === undefined ? null : Number(max);
  }

  insert(em: EntityManager, row: Partial<IssueView>): Promise<IssueView> {
    return em.save(em.create(IssueView, row));
  }

  async update(em: EntityManager, id: string, patch: Partial<IssueView>): Promise<void> {
    await em.update(IssueView, { id }, patch as never);
  }

  async softDelete(em: EntityManager, id: string): Promise<void> {
    await em.softDelete(IssueView, { id });
  }

  /** The live view by id, or null (after a write). */
  byId(em: EntityManager, id: string): Promise<IssueView | null> {
    return em.getRepository(IssueView).findOne({ where: { id } });
  }
}
