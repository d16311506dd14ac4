import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReadBatch } from '../kernel/hot-query';
import { likeContaining } from '../kernel/like-pattern';

/**
 * The search room's own statement: the page search (Plane 0.25.3's `search/`). The other kinds
 * are searched by the rooms that own them (workspaces, projects, cycles, modules, work items,
 * members), through their doors.
 */
@Injectable()
export class SearchRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The pages the caller sees in their live, unarchived projects of the workspace (one project with
   * `projectId`): public ones and their own, a Guest only their own unless the project shows Guests
   * everything (the page room's rules), whose name or text (`description_stripped`, what the editor
   * typed) contains `q`, newest first, at most `limit`. Rows as Plane's `filter_pages`: `{name, id,
   * project_ids, project_identifiers, workspace__slug}`. One statement over the page room's tables
   * (the page room is above this one, so they are read by name) and the project and workspace
   * rooms' (joined by entity name: the caller's projects, their Guest rule and the slug). With
   * `batch`, sent in it (`SearchService.global` gathers its kinds' statements in one).
   */
  async pages(
    workspaceId: string,
    userId: string,
    q: string,
    projectId: string | undefined,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    const qb = this.dataSource.manager
      .createQueryBuilder()
      .from('Page', 'pg')
      .innerJoin('ProjectPage', 'pp', 'pp.pageId = pg.id AND pp.deletedAt IS NULL')
      .innerJoin('Project', 'p', 'p.id = pp.projectId AND p.deletedAt IS NULL AND p.archivedAt IS NULL')
      .innerJoin('ProjectMember', 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .innerJoin('Workspace', 'w', 'w.id = pg.workspaceId')
      .where('pg.workspaceId = :workspaceId AND pg.deletedAt IS NULL', { workspaceId })
      .andWhere('(pg.access = 0 OR pg.ownedById = :userId)')
      .andWhere('(pm.role > 5 OR p.guestViewAllFeatures = true OR pg.ownedById = :userId)')
      .andWhere("(pg.name ILIKE :like ESCAPE '\\' OR pg.descriptionStripped ILIKE :like ESCAPE '\\')", {
        like: likeContaining(q),
      })
      .select([
        'pg.name AS name',
        'pg.id AS id',
        'array_agg(DISTINCT p.id) AS project_ids',
        'array_agg(DISTINCT p.identifier) AS project_identifiers',
        'w.slug AS workspace__slug',
      ])
      .groupBy('pg.id')
      .addGroupBy('w.slug')
      .orderBy('MAX(pg.createdAt)', 'DESC')
      .limit(limit);
    if (projectId) qb.andWhere('p.id = :projectId', { projectId });
    return batch ? batch.query(this.dataSource, ...qb.getQueryAndParameters()) : qb.getRawMany();
  }
}
