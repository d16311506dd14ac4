import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { externalIdMap, liveByName } from '../kernel/external-id';
import type { Project } from '../project';
import type { IssueLabel } from '../issue';
import { Label } from './label.entity';

/** All SQL of the label feature. */
@Injectable()
export class LabelRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** A page of the project's labels, newest first; none while the project is archived. */
  async listPageInProject(projectId: string, page: PageRequest): Promise<Page<Label>> {
    const qb = this.dataSource
      .getRepository(Label)
      .createQueryBuilder('l')
      .innerJoin('Project', 'p', 'p.id = l.projectId AND p.archivedAt IS NULL')
      .where('l.projectId = :projectId', { projectId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** A page of the labels of the workspace's live, non-archived projects `userId` is an active member of, newest first. */
  async listPageInMemberProjects(workspaceId: string, userId: string, page: PageRequest): Promise<Page<Label>> {
    const qb = this.dataSource
      .getRepository(Label)
      .createQueryBuilder('l')
      .innerJoin('Project', 'p', 'p.id = l.projectId AND p.archivedAt IS NULL AND p.deletedAt IS NULL')
      .innerJoin('ProjectMember', 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .where('p.workspaceId = :workspaceId', { workspaceId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** Whether the live project is archived. */
  async isProjectArchived(projectId: string): Promise<boolean> {
    return this.dataSource
      .getRepository<Project>('Project')
      .exists({ where: { id: projectId, archivedAt: Not(IsNull()) } });
  }

  /** The highest `sort_order` of the project's live labels, or null for none. */
  async maxSortOrder(em: EntityManager, projectId: string): Promise<number | null> {
    const row = await em
      .getRepository(Label)
      .createQueryBuilder('l')
      .select('MAX(l.sortOrder)', 'max')
      .where('l.projectId = :projectId', { projectId })
      .getRawOne<{ max: number | null }>();
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }

  /** The live label of the project, or null; `lock` takes a row lock (`FOR UPDATE`) for `em`'s transaction. */
  async findInProject(em: EntityManager, projectId: string, labelId: string, lock = false): Promise<Label | null> {
    const qb = em
      .getRepository(Label)
      .createQueryBuilder('l')
      .where('l.id = :labelId AND l.projectId = :projectId', { labelId, projectId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Takes the label off every work item. */
  async removeFromWorkItems(em: EntityManager, labelId: string): Promise<void> {
    await em.delete<IssueLabel>('IssueLabel', { labelId });
  }

  /** Inserts a label (an entity built by the caller); the saved row. */
  insert(em: EntityManager, label: Label): Promise<Label> {
    return em.save(label);
  }

  /** Writes `patch` to the label `id` (a soft delete with `deletedAt`). */
  async update(em: EntityManager, id: string, patch: Partial<Label>): Promise<void> {
    await em.update(Label, { id }, patch as never);
  }

  /** The children of `parentId` become top-level labels. */
  async detachChildren(em: EntityManager, parentId: string, userId: string): Promise<void> {
    await em.update(Label, { parentId }, { parentId: null, updatedById: userId });
  }

  /** The live label `id` of the project, or null (without a lock). */
  findById(em: EntityManager, projectId: string, id: string): Promise<Label | null> {
    return em.getRepository(Label).findOne({ where: { id, projectId } });
  }

  /** The id of the project's live label named `name` (exactly, after trimming), or null. */
  async idByName(em: EntityManager, projectId: string, name: string): Promise<string | null> {
    const found = await em
      .getRepository(Label)
      .findOne({ where: { projectId, name: name.trim() }, select: { id: true } });
    return found?.id ?? null;
  }

  // ---- reads for the rooms above (through LabelService)

  /** The project's live labels by `sort_order`. */
  inProject(projectId: string): Promise<Label[]> {
    return this.dataSource.getRepository(Label).find({ where: { projectId }, order: { sortOrder: 'ASC', id: 'ASC' } });
  }

  /** The live labels of the project among `ids` (their ids, in no order), in `em`'s transaction. */
  async liveIdsInProject(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await em.getRepository(Label).find({ select: { id: true }, where: { projectId, id: In(ids) } });
    return rows.map((l) => l.id);
  }

  /** The labels among `ids` (entities, in no order), deleted ones too with `withDeleted`. */
  byIds(em: EntityManager, ids: string[], withDeleted: boolean): Promise<Label[]> {
    return em.getRepository(Label).find({ where: { id: In(ids) }, withDeleted });
  }

  /** The live labels among `ids` (their ids). */
  async liveIds(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.dataSource.getRepository(Label).find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(rows.map((l) => l.id));
  }

  // ---- the import's dedupe reads (through the service's door)

  /** `external_id` → id of the project's live labels that came from `source` (`external_source`). */
  externalIds(
    projectId: string,
    source: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string>> {
    return externalIdMap(em, Label, 'project_id', projectId, source);
  }

  /** The project's live labels by name: id and `external_id`. */
  namesOf(projectId: string, em: EntityManager = this.dataSource.manager) {
    return liveByName(em, Label, projectId);
  }
}
