import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { externalIdMap } from '../kernel/external-id';
import type { bindNamed, DateFilter, IssueFilterSet, issueFilterConditions } from '../issue';
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

/**
 * The issue room's filter compiler (its door's `bindNamed` and `issueFilterConditions`), which the
 * service hands to `listPage`: the list's work item filters are conditions on the joined work item
 * of one paginated statement, written once, in the issue room.
 */
export interface IssueFilterCompiler {
  bindNamed: typeof bindNamed;
  issueFilterConditions: typeof issueFilterConditions;
}

/** Where a work item came from through intake: `source`, `source_email`, `extra` of its first intake row. */
export interface IntakeSourceRow {
  source: string | null;
  source_email: string | null;
  extra: Record<string, unknown> | null;
}

/**
 * All of the intake feature's SQL: the intake rows of a project, joined to their live work items.
 * An intake row counts only while its work item is live, so the statements that find or count rows
 * join `issues` by entity name (no import of the issue room); what else an intake flow reads or
 * moves of other rooms' rows, its service reads through their doors.
 */
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
   * list) narrows by status and work item fields (compiled by `compiler`, the issue room's) and
   * orders by a work item key.
   */
  listPage(
    projectId: string,
    page: PageRequest,
    createdById?: string,
    filter?: { spec: IntakeListFilter; compiler: IssueFilterCompiler },
    intakeId?: string,
  ): Promise<Page<IntakeIssue>> {
    const qb = this.dataSource
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin('Issue', 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId', { projectId });
    if (createdById !== undefined) qb.andWhere('r.createdById = :viewerId', { viewerId: createdById });
    if (intakeId !== undefined) qb.andWhere('r.intakeId = :intakeId', { intakeId });
    if (!filter) return paginate(qb, page, { order: 'DESC' });
    const { spec, compiler } = filter;
    if (spec.statuses.length) qb.andWhere('r.status IN (:...statuses)', { statuses: spec.statuses });
    const params: Record<string, unknown> = {};
    const bind = compiler.bindNamed(params, 'f');
    const where = compiler.issueFilterConditions(spec.issue, bind);
    for (const [list, column] of [
      [spec.created_at, 'i.created_at'],
      [spec.updated_at, 'i.updated_at'],
    ] as const) {
      for (const f of list ?? [])
        where.push(
          `(${column} AT TIME ZONE 'UTC')::date ${f.op === 'after' ? '>=' : f.op === 'before' ? '<=' : '='} ${bind(f.date)}::date`,
        );
    }
    for (const w of where) qb.andWhere(w);
    qb.setParameters(params);
    return paginate(qb, page, {
      key: ORDER_KEYS[spec.orderBy],
      order: spec.desc ? 'DESC' : 'ASC',
      keyType: spec.orderBy === 'sequence_id' ? 'bigint' : 'timestamp',
    });
  }

  /** A live item of the intake (its work item live too) by the item's id or its work item's id. */
  findLiveRowByIdOrIssue(projectId: string, intakeId: string, id: string): Promise<IntakeIssue | null> {
    return this.dataSource
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .innerJoin('Issue', 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
      .where('r.projectId = :projectId AND r.intakeId = :intakeId', { projectId, intakeId })
      .andWhere('(r.id = :id OR r.issueId = :id)', { id })
      .getOne();
  }

  /** Each work item's first live intake row's `source`, `source_email` and `extra` (work items without one are absent). */
  async sourcesOf(issueIds: string[]): Promise<Map<string, IntakeSourceRow>> {
    const rows = await this.dataSource.query<Array<IntakeSourceRow & { issue_id: string }>>(
      `SELECT DISTINCT ON (issue_id) issue_id, source, source_email, extra FROM intake_issues
        WHERE issue_id = ANY($1::uuid[]) AND deleted_at IS NULL ORDER BY issue_id, created_at`,
      [issueIds],
    );
    return new Map(rows.map((r) => [r.issue_id, { source: r.source, source_email: r.source_email, extra: r.extra }]));
  }

  /** The live intake row `id`, or whose work item is `id` (any project); null when none. */
  findLiveRowByIdOrIssueAnywhere(em: EntityManager, id: string): Promise<IntakeIssue | null> {
    return em
      .getRepository(IntakeIssue)
      .createQueryBuilder('r')
      .where('(r.id = :id OR r.issueId = :id) AND r.deletedAt IS NULL', { id })
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
      .innerJoin('Issue', 'i', 'i.id = r.issueId AND i.deletedAt IS NULL')
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
      .where('k.projectId = :projectId', { projectId })
      .andWhere('k.deletedAt IS NULL')
      .orderBy('k.createdAt', 'ASC');
    if (id) qb.andWhere('k.id = :id', { id });
    const rows = await qb.getMany();
    if (!rows.length) return [];
    const counts: Array<{ intake_id: string; n: string }> = await em
      .getRepository(IntakeIssue)
      .createQueryBuilder('ii')
      .innerJoin('Issue', 'i', 'i.id = ii.issueId AND i.deletedAt IS NULL')
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

  // ---- the import's dedupe reads (through the service's door)

  /** `external_id` → id of the project's live intake work items that came from `source` (`external_source`). */
  externalIds(
    projectId: string,
    source: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string>> {
    return externalIdMap(em, IntakeIssue, 'project_id', projectId, source);
  }
}
