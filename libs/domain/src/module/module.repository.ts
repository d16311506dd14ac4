import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  countIssues,
  countSubIssues,
  distribution,
  favoriteIdsOf,
  IssueCounts,
  subIssueCounts,
  sumEstimatePoints,
  usesPointEstimate,
} from '../cycle';
import type { Distribution, DistributionUnit, EstimatePointSums } from '../cycle';
import { Issue } from '../issue';
import { Project } from '../project';
import { Module } from './module.entity';
import { ModuleLink } from './module-link.entity';
import { ModuleIssue } from './module-issue.entity';

/** All of the module feature's SQL: modules, their work item links and counts. */
@Injectable()
export class ModuleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One keyset page, newest first, of the project's non-archived modules (those of an archived
   * project are left out) or, with `archived`, of its archived ones; `onlyModuleId` narrows to one.
   */
  listPage(projectId: string, page: PageRequest, archived: boolean, onlyModuleId?: string): Promise<Page<Module>> {
    const qb = this.dataSource
      .getRepository(Module)
      .createQueryBuilder('m')
      .where(`m.projectId = :projectId AND m.archivedAt IS ${archived ? 'NOT ' : ''}NULL`, { projectId });
    if (onlyModuleId !== undefined) qb.andWhere('m.id = :onlyModuleId', { onlyModuleId });
    if (!archived) qb.innerJoin(Project, 'p', 'p.id = m.projectId AND p.archivedAt IS NULL');
    return paginate(qb, page, { order: 'DESC' });
  }

  /**
   * Non-archived modules of the workspace's live, non-archived projects `userId` is an active
   * member of, newest first, all of them (`GET /workspaces/{slug}/modules/`).
   */
  listForMember(workspaceId: string, userId: string): Promise<Module[]> {
    return this.dataSource
      .getRepository(Module)
      .createQueryBuilder('m')
      .innerJoin(Project, 'p', 'p.id = m.projectId AND p.archivedAt IS NULL AND p.deletedAt IS NULL')
      .innerJoin(
        'ProjectMember',
        'pm',
        'pm.projectId = m.projectId AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL',
        { userId },
      )
      .where('m.workspaceId = :workspaceId AND m.archivedAt IS NULL', { workspaceId })
      .orderBy('m.createdAt', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .getMany();
  }

  /** The live module of the project with this id (archived too), or null; `lock` takes a row lock (FOR UPDATE). */
  findInProject(em: EntityManager, projectId: string, moduleId: string, lock = false): Promise<Module | null> {
    const qb = em
      .getRepository(Module)
      .createQueryBuilder('m')
      .where('m.id = :moduleId AND m.projectId = :projectId', { moduleId, projectId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** A page of the module's live links, newest first. */
  linksPage(moduleId: string, page: PageRequest): Promise<Page<ModuleLink>> {
    const qb = this.dataSource
      .getRepository(ModuleLink)
      .createQueryBuilder('l')
      .where('l.moduleId = :moduleId', { moduleId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The module's live links, newest first (Plane's `link_module`, `ModuleLink.Meta.ordering`). */
  liveLinks(em: EntityManager, moduleId: string): Promise<ModuleLink[]> {
    return em.getRepository(ModuleLink).find({ where: { moduleId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The modules among `moduleIds` `userId` has a favourite of (Plane's `is_favorite`); one statement. */
  favoriteIds(em: EntityManager, userId: string, moduleIds: string[]): Promise<Set<string>> {
    return favoriteIdsOf(em, 'module', userId, moduleIds);
  }

  /** The module's live link with this URL, or null. */
  liveLinkWithUrl(em: EntityManager, moduleId: string, url: string): Promise<ModuleLink | null> {
    return em.getRepository(ModuleLink).findOne({ where: { moduleId, url } });
  }

  /** The lowest `sort_order` of the project's live modules, or null when it has none. */
  async lowestSortOrder(em: EntityManager, projectId: string): Promise<number | null> {
    const row = await em
      .getRepository(Module)
      .createQueryBuilder('m')
      .select('MIN(m.sortOrder)', 'min')
      .where('m.projectId = :projectId', { projectId })
      .getRawOne<{ min: number | null }>();
    return row?.min === null || row?.min === undefined ? null : Number(row.min);
  }

  /**
   * A page of the module's non-archived, non-draft work items of the project, by creation time
   * (`order`), through the keyset paginator.
   */
  issuesPage(projectId: string, moduleId: string, page: PageRequest, order: 'ASC' | 'DESC'): Promise<Page<Issue>> {
    const qb = this.dataSource
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(ModuleIssue, 'mi', 'mi.issueId = i.id AND mi.moduleId = :moduleId AND mi.deletedAt IS NULL', {
        moduleId,
      })
      .where('i.projectId = :projectId AND i.archivedAt IS NULL AND i.isDraft = false', { projectId });
    return paginate(qb, page, { order });
  }

  /** Work item counts of each module by state group (the cycle feature's `countIssues` over `module_issues`). */
  countIssues(em: EntityManager, moduleIds: string[]): Promise<Map<string, IssueCounts>> {
    return countIssues(em, 'module_issues', 'module_id', moduleIds);
  }

  /** Estimate point sums of each module by state group (the cycle feature's `sumEstimatePoints`). */
  sumEstimatePoints(em: EntityManager, moduleIds: string[]): Promise<Map<string, EstimatePointSums>> {
    return sumEstimatePoints(em, 'module_issues', 'module_id', moduleIds);
  }

  /** Members of each module, sorted (one statement for the page). */
  async memberIds(em: EntityManager, moduleIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(moduleIds.map((id) => [id, []]));
    if (!moduleIds.length) return out;
    const params = moduleIds.map((_, n) => `$${n + 1}`).join(', ');
    const rows: Array<{ module_id: string; member_id: string }> = await em.query(
      `SELECT module_id, member_id FROM module_members WHERE module_id IN (${params}) ORDER BY member_id`,
      moduleIds,
    );
    for (const r of rows) out.get(r.module_id)!.push(r.member_id);
    return out;
  }

  /** Live, non-archived, non-draft work items with a parent among the module's (Plane's `sub_issues`). */
  subIssuesOf(em: EntityManager, moduleId: string): Promise<number> {
    return countSubIssues(em, 'module_issues', 'module_id', moduleId);
  }

  /**
   * Plane's module distribution (`ModuleViewSet.retrieve`, shared with the cycle analytics): per
   * assignee (`first_name`, `last_name`, `assignee_id`, `avatar_url`, `display_name`, ordered by
   * name) and per label, by work items or estimate points; completions on UTC days.
   */
  distribution(em: EntityManager, moduleId: string, unit: DistributionUnit): Promise<Distribution> {
    return distribution(em, { table: 'module_issues', column: 'module_id', id: moduleId }, unit, {
      names: true,
      timezone: 'UTC',
    });
  }

  /** Whether the project's estimate is of type `points`. */
  usesPointEstimate(em: EntityManager, projectId: string): Promise<boolean> {
    return usesPointEstimate(em, projectId);
  }

  /** Number of live sub-items of each work item. */
  subIssueCounts(em: EntityManager, issueIds: string[]): Promise<Map<string, number>> {
    return subIssueCounts(em, issueIds);
  }
}
