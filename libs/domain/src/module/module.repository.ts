import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { distribution, PlanningRepository } from '../cycle';
import type { Distribution, DistributionUnit } from '../cycle';
import { Project } from '../project';
import { WorkspaceMember } from '../workspace';
import { Module } from './module.entity';
import { ModuleLink } from './module-link.entity';
import { ModuleIssue } from './module-issue.entity';
import { ModuleMember } from './module-member.entity';

/**
 * All of the module feature's SQL: modules, their members, links and work item links (what cycles
 * share is the cycle room's `PlanningRepository`).
 */
@Injectable()
export class ModuleRepository extends PlanningRepository<Module, ModuleIssue> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, {
      entity: Module,
      link: ModuleIssue,
      owner: 'moduleId',
      table: 'module_issues',
      column: 'module_id',
      favorite: 'module',
      alias: 'm',
      linkAlias: 'mi',
    });
  }

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

  /** The id of the project's live module with this name (trimmed), or null. */
  async idByName(em: EntityManager, projectId: string, name: string): Promise<string | null> {
    const found = await em.getRepository(Module).findOne({ where: { projectId, name }, select: { id: true } });
    return found?.id ?? null;
  }

  /** Whether `userId` is an active member of the workspace (a module's `lead`). */
  isActiveWorkspaceMember(em: EntityManager, workspaceId: string, userId: string): Promise<boolean> {
    return em.getRepository(WorkspaceMember).exists({ where: { workspaceId, memberId: userId, isActive: true } });
  }

  // ---- members ---------------------------------------------------------------------------------

  /** The member rows of these modules, in no order. */
  membersOf(em: EntityManager, moduleIds: string[]): Promise<ModuleMember[]> {
    return em.getRepository(ModuleMember).find({ where: { moduleId: In(moduleIds) } });
  }

  /** Adds these members to the module (none: nothing sent). */
  async insertMembers(em: EntityManager, moduleId: string, memberIds: string[]): Promise<void> {
    if (memberIds.length)
      await em.insert(
        ModuleMember,
        memberIds.map((memberId) => ({ moduleId, memberId })),
      );
  }

  /** Removes every member of the module. */
  async deleteMembers(em: EntityManager, moduleId: string): Promise<void> {
    await em.delete(ModuleMember, { moduleId });
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

  // ---- links (URLs) ------------------------------------------------------------------------------

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

  /** The module's live link with this id, or null. */
  findUrlLink(em: EntityManager, moduleId: string, linkId: string): Promise<ModuleLink | null> {
    return em.getRepository(ModuleLink).findOne({ where: { id: linkId, moduleId } });
  }

  /** The module's live link with this URL, or null. */
  liveLinkWithUrl(em: EntityManager, moduleId: string, url: string): Promise<ModuleLink | null> {
    return em.getRepository(ModuleLink).findOne({ where: { moduleId, url } });
  }

  /** Saves a link (new or changed) and answers it as saved. */
  saveUrlLink(em: EntityManager, link: ModuleLink): Promise<ModuleLink> {
    return em.save(link);
  }

  /** Soft-deletes the link. */
  async deleteUrlLink(em: EntityManager, linkId: string, userId: string): Promise<void> {
    await em.update(ModuleLink, { id: linkId }, { deletedAt: new Date(), updatedById: userId });
  }

  // ---- the detail's distribution -----------------------------------------------------------------

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
}
