import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { DraftIssue } from './draft-issue.entity';
import { DraftIssueAssignee } from './draft-issue-assignee.entity';
import { DraftIssueCycle } from './draft-issue-cycle.entity';
import { DraftIssueLabel } from './draft-issue-label.entity';
import { DraftIssueModule } from './draft-issue-module.entity';

/** What hangs off a draft, as its JSON shows it (ids of live rows only). */
export interface DraftLinks {
  assignee_ids: string[];
  label_ids: string[];
  cycle_id: string | null;
  module_ids: string[];
}

/** All of the draft feature's SQL (Plane `plane/app/views/workspace/draft.py` querysets). */
@Injectable()
export class DraftRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Inserts a draft (an entity built by the caller); the saved row. */
  insert(em: EntityManager, draft: DraftIssue): Promise<DraftIssue> {
    return em.save(draft);
  }

  /** Writes `patch` to the draft `id` (a soft delete with `deletedAt`). */
  async update(em: EntityManager, id: string, patch: Partial<DraftIssue>): Promise<void> {
    await em.update(DraftIssue, { id }, patch as never);
  }

  /** One keyset page, newest first, of the user's live drafts in the workspace (Plane filters `created_by`). */
  listPage(workspaceId: string, userId: string, page: PageRequest): Promise<Page<DraftIssue>> {
    const qb = this.dataSource
      .getRepository(DraftIssue)
      .createQueryBuilder('d')
      .where('d.workspaceId = :workspaceId AND d.createdById = :userId', { workspaceId, userId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The user's own live draft in the workspace (locked for the transaction with `lock`), else null. */
  findOwn(
    em: EntityManager,
    workspaceId: string,
    userId: string,
    id: string,
    lock = false,
  ): Promise<DraftIssue | null> {
    return em.getRepository(DraftIssue).findOne({
      where: { id, workspaceId, createdById: userId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /**
   * The assignees, labels, cycle and modules of each draft, as Plane's queryset annotates them:
   * live labels, assignees still active Admins or Members of the draft's project, a live cycle,
   * live modules that are not archived. Four statements whatever the number of drafts.
   */
  async links(em: EntityManager, drafts: DraftIssue[]): Promise<Map<string, DraftLinks>> {
    const out = new Map<string, DraftLinks>(
      drafts.map((d) => [d.id, { assignee_ids: [], label_ids: [], cycle_id: null, module_ids: [] }]),
    );
    if (!drafts.length) return out;
    const ids = drafts.map((d) => d.id);
    const assignees = await em
      .getRepository(DraftIssueAssignee)
      .createQueryBuilder('a')
      .innerJoin(DraftIssue, 'd', 'd.id = a.draftIssueId')
      .innerJoin(
        'ProjectMember',
        'pm',
        'pm.projectId = d.projectId AND pm.memberId = a.assigneeId AND pm.isActive = true AND pm.deletedAt IS NULL AND pm.role >= :role',
        { role: ROLE.MEMBER },
      )
      .select(['a.draftIssueId AS draft_id', 'a.assigneeId AS id'])
      .where('a.draftIssueId IN (:...ids)', { ids })
      .orderBy('a.assigneeId')
      .getRawMany<{ draft_id: string; id: string }>();
    for (const r of assignees) out.get(r.draft_id)?.assignee_ids.push(r.id);
    const labels = await em
      .getRepository(DraftIssueLabel)
      .createQueryBuilder('l')
      .innerJoin('Label', 'lb', 'lb.id = l.labelId AND lb.deletedAt IS NULL')
      .select(['l.draftIssueId AS draft_id', 'l.labelId AS id'])
      .where('l.draftIssueId IN (:...ids)', { ids })
      .orderBy('l.labelId')
      .getRawMany<{ draft_id: string; id: string }>();
    for (const r of labels) out.get(r.draft_id)?.label_ids.push(r.id);
    const cycles = await em
      .getRepository(DraftIssueCycle)
      .createQueryBuilder('c')
      .innerJoin('Cycle', 'cy', 'cy.id = c.cycleId AND cy.deletedAt IS NULL')
      .select(['c.draftIssueId AS draft_id', 'c.cycleId AS id'])
      .where('c.draftIssueId IN (:...ids)', { ids })
      .getRawMany<{ draft_id: string; id: string }>();
    for (const r of cycles) {
      const links = out.get(r.draft_id);
      if (links) links.cycle_id = r.id;
    }
    const modules = await em
      .getRepository(DraftIssueModule)
      .createQueryBuilder('m')
      .innerJoin('Module', 'mo', 'mo.id = m.moduleId AND mo.deletedAt IS NULL AND mo.archivedAt IS NULL')
      .select(['m.draftIssueId AS draft_id', 'm.moduleId AS id'])
      .where('m.draftIssueId IN (:...ids)', { ids })
      .orderBy('m.moduleId')
      .getRawMany<{ draft_id: string; id: string }>();
    for (const r of modules) out.get(r.draft_id)?.module_ids.push(r.id);
    return out;
  }

  /** The largest `sort_order` of the live drafts in that project and state, null when none. */
  async highestSortOrder(em: EntityManager, projectId: string | null, stateId: string | null): Promise<number | null> {
    const qb = em.getRepository(DraftIssue).createQueryBuilder('d').select('MAX(d.sortOrder)', 'max');
    qb.where(projectId ? 'd.projectId = :projectId' : 'd.projectId IS NULL', { projectId });
    qb.andWhere(stateId ? 'd.stateId = :stateId' : 'd.stateId IS NULL', { stateId });
    const row = await qb.getRawOne<{ max: number | null }>();
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }

  /** Replaces the draft's assignees, labels, cycle or modules (`null` leaves a set as it is). */
  async replaceLinks(
    em: EntityManager,
    draftId: string,
    sets: { assignees?: string[]; labels?: string[]; cycle?: string | null; modules?: string[] },
  ): Promise<void> {
    if (sets.assignees !== undefined) {
      await em.delete(DraftIssueAssignee, { draftIssueId: draftId });
      if (sets.assignees.length)
        await em.insert(
          DraftIssueAssignee,
          sets.assignees.map((assigneeId) => ({ draftIssueId: draftId, assigneeId })),
        );
    }
    if (sets.labels !== undefined) {
      await em.delete(DraftIssueLabel, { draftIssueId: draftId });
      if (sets.labels.length)
        await em.insert(
          DraftIssueLabel,
          sets.labels.map((labelId) => ({ draftIssueId: draftId, labelId })),
        );
    }
    if (sets.cycle !== undefined) {
      await em.delete(DraftIssueCycle, { draftIssueId: draftId });
      if (sets.cycle) await em.insert(DraftIssueCycle, { draftIssueId: draftId, cycleId: sets.cycle });
    }
    if (sets.modules !== undefined) {
      await em.delete(DraftIssueModule, { draftIssueId: draftId });
      if (sets.modules.length)
        await em.insert(
          DraftIssueModule,
          sets.modules.map((moduleId) => ({ draftIssueId: draftId, moduleId })),
        );
    }
  }

  /** The drafts with these ids (any owner), for rendering after a write. */
  byIds(em: EntityManager, ids: string[]): Promise<DraftIssue[]> {
    return em.getRepository(DraftIssue).find({ where: { id: In(ids) } });
  }
}
