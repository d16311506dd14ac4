import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import type { PlanningKind } from '../cycle';
import { Module } from './module.entity';
import { ModuleLink } from './module-link.entity';
import { ModuleIssue } from './module-issue.entity';
import { ModuleMember } from './module-member.entity';

/**
 * How the cycle room's shared queries (`PlanningRepository`, through the cycle door) tell modules
 * apart: `modules` and their work item links `module_issues`, favourites of type `module`.
 * `ModuleFeatureModule` provides that repository as `MODULE_PLANNING`.
 */
export const MODULE_KIND: PlanningKind<Module, ModuleIssue> = {
  entity: Module,
  link: ModuleIssue,
  owner: 'moduleId',
  table: 'module_issues',
  column: 'module_id',
  favorite: 'module',
  alias: 'm',
  linkAlias: 'mi',
  status: 'm.status',
};

/** The injection token of the module rooms' `PlanningRepository<Module, ModuleIssue>` (over `MODULE_KIND`). */
export const MODULE_PLANNING = 'MODULE_PLANNING';

/**
 * The module feature's own SQL: the module lists and names, members and links (URLs). What cycles
 * and modules share (a module and its work item links, counts, sums, favourites, the
 * distribution) is the cycle room's `PlanningRepository`, which the services use as
 * `MODULE_PLANNING`.
 */
@Injectable()
export class ModuleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * One keyset page, newest first, of the project's non-archived modules (those of an archived
   * project are left out: the project room's table is joined by entity name, the archived-project
   * condition of this one paginated statement) or, with `archived`, of its archived ones;
   * `onlyModuleId` narrows to one.
   */
  listPage(projectId: string, page: PageRequest, archived: boolean, onlyModuleId?: string): Promise<Page<Module>> {
    const qb = this.dataSource
      .getRepository(Module)
      .createQueryBuilder('m')
      .where(`m.projectId = :projectId AND m.archivedAt IS ${archived ? 'NOT ' : ''}NULL`, { projectId });
    if (onlyModuleId !== undefined) qb.andWhere('m.id = :onlyModuleId', { onlyModuleId });
    if (!archived) qb.innerJoin('Project', 'p', 'p.id = m.projectId AND p.archivedAt IS NULL');
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The id of the project's live module with this name (trimmed), or null. */
  async idByName(em: EntityManager, projectId: string, name: string): Promise<string | null> {
    const found = await em.getRepository(Module).findOne({ where: { projectId, name }, select: { id: true } });
    return found?.id ?? null;
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
}
