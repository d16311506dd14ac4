import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { PageLabel } from './page-label.entity';
import { PageVersion } from './page-version.entity';
import { Page, PAGE_ACCESS } from './page.entity';
import { ProjectPage } from './project-page.entity';

/**
 * Which pages a caller sees in one project: those of the project that are public or their own;
 * with `ownOnly` (a Guest of a project without `guest_view_all_features`, as Plane), only their own.
 */
export interface PageVisibility {
  workspaceId: string;
  projectId: string;
  userId: string;
  ownOnly: boolean;
}

/** How many versions a page keeps (Plane's `page_version` task). */
export const PAGE_VERSIONS_KEPT = 20;

/** All of the page feature's SQL. */
@Injectable()
export class PageRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  private visible(em: EntityManager, v: PageVisibility): SelectQueryBuilder<Page> {
    const qb = em
      .getRepository(Page)
      .createQueryBuilder('p')
      .innerJoin(ProjectPage, 'pp', 'pp.pageId = p.id AND pp.projectId = :project AND pp.deletedAt IS NULL', {
        project: v.projectId,
      })
      .where('p.workspaceId = :ws', { ws: v.workspaceId })
      .andWhere('(p.ownedById = :me OR p.access = :public)', { me: v.userId, public: PAGE_ACCESS.PUBLIC });
    if (v.ownOnly) qb.andWhere('p.ownedById = :me');
    return qb;
  }

  /** The top-level pages the caller sees (Plane lists no sub-pages), newest first. */
  list(v: PageVisibility): Promise<Page[]> {
    return this.visible(this.dataSource.manager, v)
      .andWhere('p.parentId IS NULL')
      .orderBy('p.createdAt', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .getMany();
  }

  /** One live page the caller sees, or null; `lock` takes a row lock for an update in `em`'s transaction. */
  findVisible(em: EntityManager, v: PageVisibility, id: string, lock = false): Promise<Page | null> {
    const qb = this.visible(em, v).andWhere('p.id = :id', { id });
    if (lock) qb.setLock('pessimistic_write', undefined, ['p']);
    return qb.getOne();
  }

  /** The label ids of each page (sorted), deleted labels too (the service keeps the live ones). */
  async labelIds(pageIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (pageIds.length === 0) return out;
    const rows = await this.dataSource.query<Array<{ page_id: string; label_id: string }>>(
      `SELECT pl.page_id, pl.label_id FROM page_labels pl
        WHERE pl.page_id = ANY($1::uuid[]) AND pl.deleted_at IS NULL ORDER BY pl.label_id`,
      [pageIds],
    );
    for (const r of rows) out.set(r.page_id, [...(out.get(r.page_id) ?? []), r.label_id]);
    return out;
  }

  /** The live project ids of each page (sorted). */
  async projectIds(pageIds: string[], em: EntityManager = this.dataSource.manager): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (pageIds.length === 0) return out;
    const rows = await em.query<Array<{ page_id: string; project_id: string }>>(
      `SELECT pp.page_id, pp.project_id FROM project_pages pp
        WHERE pp.page_id = ANY($1::uuid[]) AND pp.deleted_at IS NULL ORDER BY pp.project_id`,
      [pageIds],
    );
    for (const r of rows) out.set(r.page_id, [...(out.get(r.page_id) ?? []), r.project_id]);
    return out;
  }

  insert(em: EntityManager, row: Partial<Page>): Promise<Page> {
    return em.save(em.create(Page, row));
  }

  /** Puts the page in each project. */
  async addToProjects(
    em: EntityManager,
    page: Pick<Page, 'id' | 'workspaceId'>,
    projectIds: string[],
    userId: string,
  ): Promise<void> {
    if (projectIds.length === 0) return;
    await em.insert(
      ProjectPage,
      projectIds.map((projectId) => ({
        workspaceId: page.workspaceId,
        projectId,
        pageId: page.id,
        createdById: userId,
        updatedById: userId,
      })),
    );
  }

  /** Replaces the page's labels. */
  async setLabels(em: EntityManager, page: Pick<Page, 'id' | 'workspaceId'>, labelIds: string[], userId: string) {
    await em.delete(PageLabel, { pageId: page.id });
    if (labelIds.length === 0) return;
    await em.insert(
      PageLabel,
      labelIds.map((labelId) => ({
        workspaceId: page.workspaceId,
        pageId: page.id,
        labelId,
        createdById: userId,
        updatedById: userId,
      })),
    );
  }

  async update(em: EntityManager, id: string, patch: Partial<Page>): Promise<void> {
    await em.update(Page, { id }, patch as never);
  }

  /** The live page by id, or null (after a write). */
  byId(em: EntityManager, id: string): Promise<Page | null> {
    return em.getRepository(Page).findOne({ where: { id } });
  }

  /**
   * Sets `archived_at` on the page and all its live sub-pages, however deep (Plane's
   * `unarchive_archive_page_and_descendants`); returns their ids.
   */
  async setArchivedWithDescendants(em: EntityManager, id: string, archivedAt: string | null): Promise<string[]> {
    const rows = await em.query<Array<{ id: string }>>(
      `WITH RECURSIVE descendants AS (
         SELECT id FROM pages WHERE id = $1
         UNION
         SELECT p.id FROM pages p JOIN descendants d ON p.parent_id = d.id WHERE p.deleted_at IS NULL
       )
       UPDATE pages SET archived_at = $2, updated_at = now() WHERE id IN (SELECT id FROM descendants) RETURNING id`,
      [id, archivedAt],
    );
    return rows.map((r) => r.id);
  }

  /** Makes the page's live sub-pages top-level pages (before the page is deleted). */
  async detachChildren(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE pages SET parent_id = NULL, updated_at = now() WHERE parent_id = $1 AND deleted_at IS NULL`,
      [id],
    );
  }

  async softDelete(em: EntityManager, id: string): Promise<void> {
    await em.softDelete(Page, { id });
  }

  /** The page's versions, newest first (without their descriptions). */
  versions(pageId: string): Promise<PageVersion[]> {
    return this.dataSource.getRepository(PageVersion).find({
      where: { pageId },
      select: {
        id: true,
        workspaceId: true,
        pageId: true,
        lastSavedAt: true,
        ownedById: true,
        createdAt: true,
        updatedAt: true,
        deletedAt: true,
        createdById: true,
        updatedById: true,
      },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** One version of the page, or null. */
  version(pageId: string, id: string): Promise<PageVersion | null> {
    return this.dataSource.getRepository(PageVersion).findOne({ where: { pageId, id } });
  }

  /** Stores a version and drops the oldest beyond `PAGE_VERSIONS_KEPT`. */
  async addVersion(em: EntityManager, row: Partial<PageVersion>): Promise<void> {
    await em.save(em.create(PageVersion, row));
    await em.query(
      `DELETE FROM page_versions WHERE id IN (
         SELECT id FROM page_versions WHERE page_id = $1 AND deleted_at IS NULL
          ORDER BY last_saved_at DESC, created_at DESC OFFSET $2)`,
      [row.pageId, PAGE_VERSIONS_KEPT],
    );
  }
}
