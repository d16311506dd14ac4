import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { bindNamed, Issue, issueFilterConditions } from '../issue';
import { Project } from '../project';
import { State } from '../state';
import type { DateFilter, IssueFilterSet } from '../issue';
import { IntakeIssue } from './intake-issue.entity';
import { Intake } from './intake.entity';

/** The App API list's filters and order (Plane's `IntakeIssueViewSet.list`). */
export interface IntakeListFilter {
  /** the intake statuses kept; empty keeps all */
  statuses: number[];
  /** the work item filters (Plane's `issue_filters` with the `issue__` prefix) */
  issue: Pick<IssueFilterSet, 'state' | 'priority' | 'assignee' | 'label' | 'created_by'>;
  /** the work item's creation and update days (`YYYY-MM-DD;after|before`, all must hold) */
  created_at?: DateFilter[];
  updated_at?: DateFilter[];
  /** `order_by`: the work item's `created_at`, `updated_at` or `sequence_id`, descending with `desc` */
  orderBy: 'created_at' | 'updated_at' | 'sequence_id';
  desc: boolean;
}

const ORDER_KEYS = { created_at: 'i.createdAt', updated_at: 'i.updatedAt', sequence_id: 'i.sequenceId' } as const;

/** All of the intake feature's SQL: the intake rows of a project, joined to their live work items. */
@Injectable()
export class IntakeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /**
   * A page of the project's live intake rows whose work item is live, newest first, through the
   * keyset paginator; `createdById` keeps only the rows that user submitted. `filter` (the App API
   * list) narrows by status and work item fields and orders by a work item key.
   */
  listPage(
    projectId: string,
    page: PageRequest,
    createdById?: string,
    filter?: IntakeListFilter,
    intakeId?: string,
  ): Promise<Page<IntakeIssue>> {
    const qb = this.dataSource
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin(Issue, 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId', { projectId });
    if (createdById !== undefined) qb.andWhere('r.createdById = :viewerId', { viewerId: createdById });
    if (intakeId !== undefined) qb.andWhere('r.intakeId = :intakeId', { intakeId });
    if (!filter) return paginate(qb, page, { order: 'DESC' });
    if (filter.statuses.length) qb.andWhere('r.status IN (:...statuses)', { statuses: filter.statuses });
    const params: Record<string, unknown> = {};
    const bind = bindNamed(params, 'f');
    const where = issueFilterConditions(filter.issue, bind);
    for (const [list, column] of [
      [filter.created_at, 'i.created_at'],
      [filter.updated_at, 'i.updated_at'],
    ] as const) {
      for (const f of list ?? [])
        where.push(
          `(${column} AT TIME ZONE 'UTC')::date ${f.op === 'after' ? '>=' : f.op === 'before' ? '<=' : '='} ${bind(f.date)}::date`,
        );
    }
    for (const w of where) qb.andWhere(w);
    qb.setParameters(params);
    return paginate(qb, page, {
      key: ORDER_KEYS[filter.orderBy],
      order: filter.desc ? 'DESC' : 'ASC',
      keyType: filter.orderBy === 'sequence_id' ? 'bigint' : 'timestamp',
    });
  }

  /** A live item of the intake (its work item live too) by the item's id or its work item's id. */
  findLiveRowByIdOrIssue(projectId: string, intakeId: string, id: string): Promise<IntakeIssue | null> {
    return this.dataSource
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin(Issue, 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId AND r.intakeId = :intakeId', { projectId, intakeId })
      .andWhere('(r.id = :id OR r.issueId = :id)', { id })
      .getOne();
  }

  /**
   * The project's live intake row of this work item, if the work item is live too, or null; `lock`
   * locks the intake row (FOR UPDATE OF r).
   */
  findLiveRow(em: EntityManager, projectId: string, issueId: string, lock = false): Promise<IntakeIssue | null> {
    const qb = em
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin(Issue, 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId AND r.issueId = :issueId', { projectId, issueId });
    if (lock) qb.setLock('pessimistic_write', undefined, ['r']);
    return qb.getOne();
  }

  /**
   * The project's live intake objects (one at most), or the one with `id`, with the number of its
   * pending rows (status -2) whose work item is live (Plane's `pending_issue_count`).
   */
  async intakeObjects(
    projectId: string,
    id?: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Array<{ intake: Intake; pending: number }>> {
    const qb = em
      .getRepository(Intake)
      .createQueryBuilder('k')
      .leftJoinAndSelect('k.project', 'p')
      .where('k.projectId = :projectId', { projectId })
      .andWhere('k.deletedAt IS NULL')
      .orderBy('k.createdAt', 'ASC');
    if (id) qb.andWhere('k.id = :id', { id });
    const rows = await qb.getMany();
    if (!rows.length) return [];
    const counts: Array<{ intake_id: string; n: string }> = await em
      .getRepository(IntakeIssue)
      .createQueryBuilder('ii')
      .innerJoin(Issue, 'i', 'i.id = ii.issueId AND i.deletedAt IS NULL')
      .select('ii.intakeId', 'intake_id')
      .addSelect('COUNT(*)', 'n')
      .where('ii.intakeId IN (:...ids)', { ids: rows.map((r) => r.id) })
      .andWhere('ii.deletedAt IS NULL')
      .andWhere('ii.status = :pending', { pending: -2 })
      .groupBy('ii.intakeId')
      .getRawMany();
    const byId = new Map(counts.map((c) => [c.intake_id, Number(c.n)]));
    return rows.map((intake) => ({ intake, pending: byId.get(intake.id) ?? 0 }));
  }

  /** Renames or redescribes an intake object. */
  async updateIntakeObject(
    em: EntityManager,
    id: string,
    fields: { name?: string; description?: string },
    userId: string,
  ): Promise<void> {
    await em.update(Intake, { id }, { ...fields, updatedById: userId });
  }

  /** Saves a new intake row. */
  async insertRow(em: EntityManager, fields: Partial<IntakeIssue>): Promise<void> {
    await em.insert(IntakeIssue, fields as never);
  }

  /** Updates the intake row with this id. */
  async updateRow(em: EntityManager, id: string, patch: Partial<IntakeIssue>): Promise<void> {
    await em.update(IntakeIssue, { id }, patch as never);
  }

  /** The project's live intake, or null (a project has one at most). */
  findIntake(em: EntityManager, projectId: string): Promise<Intake | null> {
    return em.getRepository(Intake).findOne({ where: { projectId } });
  }

  /** Saves a new intake object (`em.save`: its `id` and defaults come back on it). */
  insertIntake(em: EntityManager, fields: Partial<Intake>): Promise<Intake> {
    return em.save(em.create(Intake, fields));
  }

  // ---- the rows of other rooms an intake flow reads or moves (by entity, from their doors) -------

  /** The live project with this id, or null. */
  project(em: EntityManager, projectId: string): Promise<Project | null> {
    return em.getRepository(Project).findOne({ where: { id: projectId } });
  }

  /** The live work item with this id, or null. */
  liveIssue(em: EntityManager, issueId: string): Promise<Issue | null> {
    return em.getRepository(Issue).findOne({ where: { id: issueId } });
  }

  /** The work item with this id, deleted too, or null. */
  issueWithDeleted(em: EntityManager, issueId: string): Promise<Issue | null> {
    return em.getRepository(Issue).findOne({ where: { id: issueId }, withDeleted: true });
  }

  /** The project's live work item with this id, or null. */
  issueOfProject(em: EntityManager, projectId: string, issueId: string): Promise<Issue | null> {
    return em.getRepository(Issue).findOne({ where: { id: issueId, projectId } });
  }

  /** Soft-deletes the work item (its sub-items lose their parent first), as the intake's delete does. */
  async softDeleteIssue(em: EntityManager, issueId: string, userId: string, now: Date): Promise<void> {
    await em.update(Issue, { parentId: issueId }, { parentId: null });
    await em.update(Issue, { id: issueId }, { deletedAt: now, updatedById: userId });
  }

  /** Moves the work item to another state (`completedAt` as the caller decides). */
  async setIssueState(
    em: EntityManager,
    issueId: string,
    patch: { stateId: string; completedAt: Date | null; updatedById: string },
  ): Promise<void> {
    await em.update(Issue, { id: issueId }, patch);
  }

  /** The state with this id, deleted too, or null. */
  stateWithDeleted(em: EntityManager, stateId: string): Promise<State | null> {
    return em.getRepository(State).findOne({ where: { id: stateId }, withDeleted: true });
  }

  /** The project's first live state of the `cancelled` group (by `sequence`), or null. */
  firstCancelledState(em: EntityManager, projectId: string): Promise<State | null> {
    return em.getRepository(State).findOne({ where: { projectId, group: 'cancelled' }, order: { sequence: 'ASC' } });
  }

  /** The project's live default state, or null. */
  defaultState(em: EntityManager, projectId: string): Promise<State | null> {
    return em.getRepository(State).findOne({ where: { projectId, default: true } });
  }

  /** Whether `intakeId` is a live intake of the project. */
  intakeExists(projectId: string, intakeId: string): Promise<boolean> {
    return this.dataSource.getRepository(Intake).existsBy({ id: intakeId, projectId });
  }

  /** Which of the work items `issueIds` have a live intake row with one of `statuses`. */
  async issueIdsWithStatus(issueIds: string[], statuses: number[]): Promise<Set<string>> {
    if (!issueIds.length) return new Set();
    const rows = await this.dataSource
      .getRepository(IntakeIssue)
      .find({ select: { issueId: true }, where: { issueId: In(issueIds), status: In(statuses) } });
    return new Set(rows.map((r) => r.issueId));
  }
}
