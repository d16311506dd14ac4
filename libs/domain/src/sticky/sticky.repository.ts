import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Sticky } from './sticky.entity';

/** All of the sticky feature's SQL. */
@Injectable()
export class StickyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One keyset page, newest first, of the user's live stickies in the workspace; `search` keeps
   * those whose name or text contains it, case-insensitively (`%`, `_` and `\` match themselves).
   */
  listPage(workspaceId: string, userId: string, page: PageRequest, search?: string): Promise<Page<Sticky>> {
    const qb = this.dataSource
      .getRepository(Sticky)
      .createQueryBuilder('s')
      .where('s.workspaceId = :workspaceId AND s.ownerId = :userId', { workspaceId, userId });
    if (search) {
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(`(s.name ILIKE :like ESCAPE '\\' OR s.descriptionStripped ILIKE :like ESCAPE '\\')`, { like });
    }
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The largest `sort_order` of the user's live stickies in the workspace, or null when there are none. */
  async highestSortOrder(em: EntityManager, workspaceId: string, userId: string): Promise<number | null> {
    const row = await em
      .getRepository(Sticky)
      .createQueryBuilder('s')
      .select('MAX(s.sortOrder)', 'max')
      .where('s.workspaceId = :workspaceId AND s.ownerId = :userId', { workspaceId, userId })
      .getRawOne<{ max: number | null }>();
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }

  /** Inserts a sticky (an entity built by the caller); the saved row. */
  insert(em: EntityManager, sticky: Sticky): Promise<Sticky> {
    return em.save(sticky);
  }

  /** Writes `patch` to the sticky `id` (a soft delete with `deletedAt`). */
  async update(id: string, patch: Partial<Sticky>): Promise<void> {
    await this.dataSource.getRepository(Sticky).update({ id }, patch as never);
  }

  /** The owner's live sticky `id` in the workspace, or null. */
  findOwn(workspaceId: string, ownerId: string, id: string): Promise<Sticky | null> {
    return this.dataSource.getRepository(Sticky).findOne({ where: { id, workspaceId, ownerId } });
  }
}
