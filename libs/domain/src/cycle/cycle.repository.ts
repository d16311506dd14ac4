import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Issue } from '../issue';
import { Project } from '../project';
import { Cycle } from './cycle.entity';
import { CycleIssue } from './cycle-issue.entity';
import { EstimatePointSums, IssueCounts, ZERO_COUNTS } from './cycle.view';
import { Distribution, distribution, DistributionUnit, usesPointEstimate } from './distribution.repository';

/** Which cycles a list shows (`cycle_view`); see `CycleService.list`. */
export type CycleListView = 'all' | 'current' | 'upcoming' | 'completed' | 'draft' | 'incomplete';

/** State groups of the work items a transfer moves (no state counts as open too). */
const OPEN_GROUPS = ['backlog', 'unstarted', 'started'];

/** All of the cycle feature's SQL: cycles, their work item links, counts and estimate sums. */
@Injectable()
export class CycleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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

  /** Non-archived cycles of a live project narrowed by `view`, newest first, one keyset page. */
  listPage(projectId: string, page: PageRequest, view: CycleListView, now: Date): Promise<Page<Cycle>> {
    return paginate(this.listQuery(projectId, view, now), page, { order: 'DESC' });
  }

  /**
   * Non-archived cycles of the workspace's live, non-archived projects `userId` is an active member
   * of, newest first, all of them (`GET /workspaces/{slug}/cycles/`).
   */
  listForMember(workspaceId: string, userId: string): Promise<Cycle[]> {
    return this.dataSource
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .innerJoin('Project', 'p', 'p.id = c.projectId AND p.archivedAt IS NULL AND p.deletedAt IS NULL')
      .innerJoin(
        'ProjectMember',
        'pm',
        'pm.projectId = c.projectId AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL',
        { userId },
      )
      .where('c.workspaceId = :workspaceId AND c.archivedAt IS NULL', { workspaceId })
      .orderBy('c.createdAt', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .getMany();
  }

  /** Archived cycles of the project, newest first, one keyset page. */
  listArchivedPage(projectId: string, page: PageRequest): Promise<Page<Cycle>> {
    const qb = this.dataSource
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .where('c.projectId = :projectId AND c.archivedAt IS NOT NULL', { projectId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The live cycle of the project with this id (archived too), or null; `lock` takes a row lock (FOR UPDATE). */
  findInProject(em: EntityManager, projectId: string, cycleId: string, lock = false): Promise<Cycle | null> {
    const qb = em
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .where('c.id = :cycleId AND c.projectId = :projectId', { cycleId, projectId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
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

  /** The lowest `sort_order` of the project's live cycles, or null when it has none. */
  async lowestSortOrder(em: EntityManager, projectId: string): Promise<number | null> {
    const row = await em
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .select('MIN(c.sortOrder)', 'min')
      .where('c.projectId = :projectId', { projectId })
      .getRawOne<{ min: number | null }>();
    return row?.min === null || row?.min === undefined ? null : Number(row.min);
  }

  /**
   * The cycle's links to live work items whose state group is backlog, unstarted or started (or
   * that have no state): what a transfer moves.
   */
  openLinks(em: EntityManager, cycleId: string): Promise<Array<{ link_id: string; issue_id: string }>> {
    return em.query(
      `SELECT l.id AS link_id, l.issue_id FROM cycle_issues l
         JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL
         LEFT JOIN states s ON s.id = i.state_id
        WHERE l.cycle_id = $1 AND l.deleted_at IS NULL AND (s.id IS NULL OR s."group" IN ('${OPEN_GROUPS.join("', '")}'))`,
      [cycleId],
    );
  }

  /**
   * A page of the cycle's non-archived, non-draft work items of the project, by creation time
   * (`order`), through the keyset paginator.
   */
  issuesPage(projectId: string, cycleId: string, page: PageRequest, order: 'ASC' | 'DESC'): Promise<Page<Issue>> {
    const qb = this.dataSource
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(CycleIssue, 'ci', 'ci.issueId = i.id AND ci.cycleId = :cycleId AND ci.deletedAt IS NULL', { cycleId })
      .where('i.projectId = :projectId AND i.archivedAt IS NULL AND i.isDraft = false', { projectId });
    return paginate(qb, page, { order });
  }

  /** Work item counts of each cycle by state group (see `countIssues`). */
  countIssues(em: EntityManager, cycleIds: string[]): Promise<Map<string, IssueCounts>> {
    return countIssues(em, 'cycle_issues', 'cycle_id', cycleIds);
  }

  /** Number of live sub-items of each work item (see `subIssueCounts`). */
  subIssueCounts(em: EntityManager, issueIds: string[]): Promise<Map<string, number>> {
    return subIssueCounts(em, issueIds);
  }

  /** Estimate point sums of each cycle by state group (see `sumEstimatePoints`). */
  sumEstimatePoints(em: EntityManager, cycleIds: string[]): Promise<Map<string, EstimatePointSums>> {
    return sumEstimatePoints(em, 'cycle_issues', 'cycle_id', cycleIds);
  }

  /**
   * The distinct assignees of each cycle's live, non-draft work items, sorted (Plane's
   * `assignee_ids` annotation of `CycleViewSet`); one statement for the page.
   */
  async assigneeIds(em: EntityManager, cycleIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(cycleIds.map((id) => [id, []]));
    if (!cycleIds.length) return out;
    const params = cycleIds.map((_, n) => `$${n + 1}`).join(', ');
    const rows: Array<{ id: string; assignee_id: string }> = await em.query(
      `SELECT DISTINCT l.cycle_id AS id, ia.assignee_id
         FROM cycle_issues l
         JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.is_draft = false
         JOIN issue_assignees ia ON ia.issue_id = i.id
        WHERE l.deleted_at IS NULL AND l.cycle_id IN (${params})
        ORDER BY ia.assignee_id`,
      cycleIds,
    );
    for (const r of rows) out.get(r.id)!.push(r.assignee_id);
    return out;
  }

  /** The cycles among `cycleIds` `userId` has a favourite of (Plane's `is_favorite`); one statement. */
  favoriteIds(em: EntityManager, userId: string, cycleIds: string[]): Promise<Set<string>> {
    return favoriteIdsOf(em, 'cycle', userId, cycleIds);
  }

  /** Live, non-archived, non-draft work items with a parent among the cycle's (Plane's `sub_issues`). */
  async subIssuesOf(em: EntityManager, cycleId: string): Promise<number> {
    return countSubIssues(em, 'cycle_issues', 'cycle_id', cycleId);
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

  /** Whether the project's estimate is of type `points`. */
  usesPointEstimate(em: EntityManager, projectId: string): Promise<boolean> {
    return usesPointEstimate(em, projectId);
  }

  private listQuery(projectId: string, view: CycleListView, now: Date) {
    const qb = this.dataSource
      .getRepository(Cycle)
      .createQueryBuilder('c')
      .innerJoin(Project, 'p', 'p.id = c.projectId AND p.archivedAt IS NULL')
      .where('c.projectId = :projectId AND c.archivedAt IS NULL', { projectId });
    if (view === 'current') qb.andWhere('c.startDate <= :now AND c.endDate >= :now', { now });
    if (view === 'upcoming') qb.andWhere('c.startDate > :now', { now });
    if (view === 'completed') qb.andWhere('c.endDate < :now', { now });
    if (view === 'draft') qb.andWhere('c.startDate IS NULL AND c.endDate IS NULL');
    if (view === 'incomplete') qb.andWhere('(c.endDate >= :now OR c.endDate IS NULL)', { now });
    return qb;
  }
}

/**
 * Counts of the live, non-archived, non-draft work items linked to each cycle or module, by state
 * group (as Plane's `plane/api/views/cycle.py`, `module.py` count them). A work item without a state
 * counts as backlog.
 */
export async function countIssues(
  em: EntityManager,
  table: 'cycle_issues' | 'module_issues',
  column: 'cycle_id' | 'module_id',
  ids: string[],
): Promise<Map<string, IssueCounts>> {
  const out = new Map<string, IssueCounts>(ids.map((id) => [id, { ...ZERO_COUNTS }]));
  if (!ids.length) return out;
  const params = ids.map((_, n) => `$${n + 1}`).join(', ');
  const rows: Array<{ id: string; grp: string | null; n: number | string }> = await em.query(
    `SELECT l.${column} AS id, s."group" AS grp, COUNT(DISTINCT i.id) AS n
       FROM ${table} l
       JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
       LEFT JOIN states s ON s.id = i.state_id
      WHERE l.deleted_at IS NULL AND l.${column} IN (${params})
      GROUP BY l.${column}, s."group"`,
    ids,
  );
  for (const r of rows) {
    const c = out.get(r.id)!;
    const n = Number(r.n);
    c.total_issues += n;
    const key = `${r.grp ?? 'backlog'}_issues` as keyof IssueCounts;
    if (key in c && key !== 'total_issues') c[key] += n;
  }
  return out;
}

/** Number of live sub-items of each work item. */
export async function subIssueCounts(em: EntityManager, issueIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!issueIds.length) return out;
  const params = issueIds.map((_, n) => `$${n + 1}`).join(', ');
  const rows: Array<{ id: string; n: number | string }> = await em.query(
    `SELECT parent_id AS id, COUNT(*) AS n FROM issues WHERE deleted_at IS NULL AND parent_id IN (${params}) GROUP BY parent_id`,
    issueIds,
  );
  for (const r of rows) out.set(r.id, Number(r.n));
  return out;
}

/**
 * How many of the live, non-archived, non-draft work items of a cycle or module have a parent
 * (Plane's `sub_issues` annotation on the cycle and module detail).
 */
export async function countSubIssues(
  em: EntityManager,
  table: 'cycle_issues' | 'module_issues',
  column: 'cycle_id' | 'module_id',
  id: string,
): Promise<number> {
  const rows: Array<{ n: number | string }> = await em.query(
    `SELECT COUNT(DISTINCT i.id) AS n FROM ${table} l
       JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
      WHERE l.deleted_at IS NULL AND l.${column} = $1 AND i.parent_id IS NOT NULL`,
    [id],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * The ids among `ids` of cycles or modules (`entityType`) that `userId` has a favourite of, in one
 * statement (Plane's `is_favorite` annotation: an `Exists` over `UserFavorite`). The favourite room
 * sits above the cycle and module rooms, so its table is read here by name.
 */
export async function favoriteIdsOf(
  em: EntityManager,
  entityType: 'cycle' | 'module',
  userId: string,
  ids: string[],
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const params = ids.map((_, n) => `$${n + 3}`).join(', ');
  const rows: Array<{ id: string }> = await em.query(
    `SELECT entity_identifier AS id FROM user_favorites
      WHERE user_id = $1 AND entity_type = $2 AND deleted_at IS NULL AND entity_identifier IN (${params})`,
    [userId, entityType, ...ids],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Sums of the numeric estimate point values of the work items counted by `countIssues`, for each
 * cycle or module (points that are not numbers, as in a `categories` estimate, count 0).
 */
export async function sumEstimatePoints(
  em: EntityManager,
  table: 'cycle_issues' | 'module_issues',
  column: 'cycle_id' | 'module_id',
  cycleIds: string[],
): Promise<Map<string, EstimatePointSums>> {
  const zero = (): EstimatePointSums => ({
    total_estimate_points: 0,
    completed_estimate_points: 0,
    cancelled_estimate_points: 0,
    started_estimate_points: 0,
    unstarted_estimate_points: 0,
    backlog_estimate_points: 0,
  });
  const out = new Map<string, EstimatePointSums>(cycleIds.map((id) => [id, zero()]));
  if (!cycleIds.length) return out;
  const params = cycleIds.map((_, n) => `$${n + 1}`).join(', ');
  const rows: Array<{ id: string; grp: string | null; n: number | string }> = await em.query(
    `SELECT l.${column} AS id, s."group" AS grp,
            SUM(CASE WHEN ep.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ep.value::numeric ELSE 0 END) AS n
       FROM ${table} l
       JOIN issues i ON i.id = l.issue_id AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
       JOIN estimate_points ep ON ep.id = i.estimate_point_id AND ep.deleted_at IS NULL
       LEFT JOIN states s ON s.id = i.state_id
      WHERE l.deleted_at IS NULL AND l.${column} IN (${params})
      GROUP BY l.${column}, s."group"`,
    cycleIds,
  );
  for (const r of rows) {
    const c = out.get(r.id)!;
    const n = Number(r.n);
    c.total_estimate_points += n;
    const key = `${r.grp ?? 'backlog'}_estimate_points` as keyof EstimatePointSums;
    if (key in c && key !== 'total_estimate_points') c[key] += n;
  }
  return out;
}
