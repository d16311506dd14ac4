import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Cycle } from './cycle.entity';
import { CycleIssue } from './cycle-issue.entity';
import { Distribution, distribution, DistributionUnit } from './distribution.repository';
import { PlanningRepository } from './planning.repository';

/** Which cycles a list shows (`cycle_view`); see `CycleService.list`. */
export type CycleListView = 'all' | 'current' | 'upcoming' | 'completed' | 'draft' | 'incomplete';

/** Plane's cycle `status` annotation (`SearchEndpoint`, `CycleViewSet`), over the alias `c`, in its order. */
const CYCLE_STATUS = `CASE WHEN c.start_date <= now() AND c.end_date >= now() THEN 'CURRENT'
  WHEN c.start_date > now() THEN 'UPCOMING' WHEN c.end_date < now() THEN 'COMPLETED' ELSE 'DRAFT' END`;

/**
 * All of the cycle feature's SQL: cycles, their work item links, counts and estimate sums (what
 * modules share is in `PlanningRepository`).
 */
@Injectable()
export class CycleRepository extends PlanningRepository<Cycle, CycleIssue> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, {
      entity: Cycle,
      link: CycleIssue,
      owner: 'cycleId',
      table: 'cycle_issues',
      column: 'cycle_id',
      favorite: 'cycle',
      alias: 'c',
      linkAlias: 'ci',
      status: CYCLE_STATUS,
    });
  }

  /**
   * `current` cycles of a live project (start ≤ `now` ≤ end), newest first, not paginated (Plane's
   * quirk); archived cycles and those of an archived project are left out.
   */
  listCurrent(projectId: string, now: Date): Promise<Cycle[]> {
    return this.listQuery(projectId, 'current', now)
      .orderBy('c.createdAt', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getMany();
  }

  /**
   * Non-archived cycles of a live project narrowed by `view`, newest first, one keyset page (the
   * project room's table joined by entity name: the archived-project condition of this one
   * paginated statement).
   */
  listPage(projectId: string, page: PageRequest, view: CycleListView, now: Date): Promise<Page<Cycle>> {
    return paginate(this.listQuery(projectId, view, now), page, { order: 'DESC' });
  }

  /** Archived cycles of the project, newest first, one keyset page. */
  listArchivedPage(projectId: string, page: PageRequest): Promise<Page<Cycle>> {
    const qb = this.dataSource
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .where('c.projectId = :projectId AND c.archivedAt IS NOT NULL', { projectId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** Whether a live cycle of the project (other than `exceptId`) has dates that meet `[start, end]`. */
  async overlaps(projectId: string, start: Date, end: Date, exceptId: string | null): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM cycles WHERE project_id = $1 AND deleted_at IS NULL AND start_date <= $3 AND end_date >= $2
       AND ($4::uuid IS NULL OR id <> $4::uuid) LIMIT 1`,
      [projectId, start, end, exceptId],
    );
    return rows.length > 0;
  }

  /**
   * The distinct assignees of each cycle's live, non-draft work items, sorted (Plane's
   * `assignee_ids` annotation of `CycleViewSet`); one statement for the page, reading
   * `cycle_assignee_tallies` (migration `PlanningTallies`: per cycle and assignee, how many such
   * work items have them, kept by triggers).
   */
  async assigneeIds(em: EntityManager, cycleIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(cycleIds.map((id) => [id, []]));
    if (!cycleIds.length) return out;
    const params = cycleIds.map((_, n) => `$${n + 1}`).join(', ');
    const rows: Array<{ id: string; assignee_id: string }> = await em.query(
      `SELECT t.cycle_id AS id, t.assignee_id
         FROM cycle_assignee_tallies t
        WHERE t.cycle_id IN (${params}) AND t.n > 0
        ORDER BY t.assignee_id`,
      cycleIds,
    );
    for (const r of rows) out.get(r.id)!.push(r.assignee_id);
    return out;
  }

  /**
   * The cycle's distribution (Plane's `CycleAnalyticsEndpoint`): assignee rows with `display_name`,
   * `assignee_id`, `avatar_url`, ordered by `display_name`; completions on the days of `timezone`.
   */
  distribution(em: EntityManager, cycleId: string, unit: DistributionUnit, timezone: string): Promise<Distribution> {
    return distribution(em, { table: 'cycle_issues', column: 'cycle_id', id: cycleId }, unit, {
      names: false,
      timezone,
    });
  }

  private listQuery(projectId: string, view: CycleListView, now: Date) {
    const qb = this.dataSource
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .innerJoin('Project', 'p', 'p.id = c.projectId AND p.archivedAt IS NULL')
      .where('c.projectId = :projectId AND c.archivedAt IS NULL', { projectId });
    if (view === 'current') qb.andWhere('c.startDate <= :now AND c.endDate >= :now', { now });
    if (view === 'upcoming') qb.andWhere('c.startDate > :now', { now });
    if (view === 'completed') qb.andWhere('c.endDate < :now', { now });
    if (view === 'draft') qb.andWhere('c.startDate IS NULL AND c.endDate IS NULL');
    if (view === 'incomplete') qb.andWhere('(c.endDate >= :now OR c.endDate IS NULL)', { now });
    return qb;
  }
}
