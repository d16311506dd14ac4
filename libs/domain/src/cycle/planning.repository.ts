import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import type { PlanningLinkScope } from '../issue';
import { externalIdMap } from '../kernel/external-id';
import { ReadBatch, readIn } from '../kernel/hot-query';
import { likeContaining } from '../kernel/like-pattern';
import { EstimatePointSums, IssueCounts, ZERO_COUNTS } from './cycle.view';
import { distributions } from './distribution.repository';
import type { Distribution, DistributionOptions, DistributionUnit } from './distribution.repository';

/** A cycle or a module as the shared queries see it. */
export interface PlanningRow {
  id: string;
  workspaceId: string;
  projectId: string;
  name: string;
  archivedAt: Date | null;
  createdById: string | null;
  updatedById: string | null;
  deletedAt: Date | null;
}

/** A row of `cycle_issues` or `module_issues`: a work item in a cycle or module. */
export interface PlanningLinkRow {
  id: string;
  issueId: string;
  createdAt: Date;
}

/**
 * What tells the cycle and module queries apart: the entity and its link entity, the link's
 * property and column naming its owner, the link table, the favourite's `entity_type` and the
 * aliases of the query builder (`c`/`ci` for cycles, `m`/`mi` for modules).
 */
export interface PlanningKind<E extends PlanningRow, L extends PlanningLinkRow> {
  entity: new () => E;
  link: new () => L;
  /** the link's property naming its owner: `cycleId` or `moduleId` */
  owner: 'cycleId' | 'moduleId';
  table: 'cycle_issues' | 'module_issues';
  column: 'cycle_id' | 'module_id';
  favorite: 'cycle' | 'module';
  alias: string;
  linkAlias: string;
  /** the row's `status` as the entity search answers it, an SQL expression over `alias` */
  status: string;
}

/**
 * The queries cycles and modules share (Plane's `CycleViewSet` and `ModuleViewSet` are twins over
 * `cycle_issues` and `module_issues`): the row of the project, its links to work items, counts,
 * sums and favourites. `CycleRepository` extends it with the cycle's own queries; the module room
 * builds one over its kind (`MODULE_KIND`) through the cycle door and its services use it beside
 * their `ModuleRepository`. Methods that take an `EntityManager` run in the caller's transaction
 * (pass `manager` outside one).
 */
export class PlanningRepository<E extends PlanningRow, L extends PlanningLinkRow> {
  constructor(
    protected readonly dataSource: DataSource,
    private readonly kind: PlanningKind<E, L>,
  ) {}

  /** The data source's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live row of the project with this id (archived too), or null; `lock` takes a row lock (FOR UPDATE). */
  findInProject(em: EntityManager, projectId: string, id: string, lock = false): Promise<E | null> {
    const a = this.kind.alias;
    const qb = em
      .getRepository(this.kind.entity)
      .createQueryBuilder(a)
      .where(`${a}.id = :id AND ${a}.projectId = :projectId`, { id, projectId });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Those of `ids` that are live, unarchived rows of the project, in no order. */
  async openIdsInProject(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    const rows = await em.getRepository(this.kind.entity).find({
      select: { id: true } as never,
      where: { id: In(ids), projectId, archivedAt: IsNull() } as never,
    });
    return rows.map((r) => r.id);
  }

  /** The live row (archived too) of the workspace with this id, or null. */
  findInWorkspace(em: EntityManager, workspaceId: string, id: string): Promise<E | null> {
    return em.getRepository(this.kind.entity).findOne({ where: { id, workspaceId } as never });
  }

  /** The rows among `ids`, soft-deleted ones too. */
  findWithDeleted(em: EntityManager, ids: string[]): Promise<E[]> {
    return em.getRepository(this.kind.entity).find({ where: { id: In(ids) } as never, withDeleted: true });
  }

  /**
   * Non-archived rows of the workspace's live, non-archived projects `userId` is an active member
   * of, newest first, all of them (`GET /workspaces/{slug}/cycles/`, `…/modules/`). The project
   * room's tables are joined by entity name: the project and membership conditions of this one
   * statement, which lists the rows whatever their number.
   */
  listForMember(workspaceId: string, userId: string): Promise<E[]> {
    const a = this.kind.alias;
    return this.dataSource
      .getRepository(this.kind.entity)
      .createQueryBuilder(a)
      .innerJoin('Project', 'p', `p.id = ${a}.projectId AND p.archivedAt IS NULL AND p.deletedAt IS NULL`)
      .innerJoin(
        'ProjectMember',
        'pm',
        `pm.projectId = ${a}.projectId AND pm.memberId = :userId AND pm.isActive = true AND pm.deletedAt IS NULL`,
        { userId },
      )
      .where(`${a}.workspaceId = :workspaceId AND ${a}.archivedAt IS NULL`, { workspaceId })
      .orderBy(`${a}.createdAt`, 'DESC')
      .addOrderBy(`${a}.id`, 'DESC')
      .getMany();
  }

  /** The lowest `sort_order` of the project's live rows, or null when it has none. */
  async lowestSortOrder(em: EntityManager, projectId: string): Promise<number | null> {
    const a = this.kind.alias;
    const row = await em
      .getRepository(this.kind.entity)
      .createQueryBuilder(a)
      .select(`MIN(${a}.sortOrder)`, 'min')
      .where(`${a}.projectId = :projectId`, { projectId })
      .getRawOne<{ min: number | null }>();
    return row?.min === null || row?.min === undefined ? null : Number(row.min);
  }

  /** Saves a new row (`em.save`: the defaults and `id` come back on it). */
  insert(em: EntityManager, fields: Partial<E>): Promise<E> {
    return em.save(em.create(this.kind.entity, fields as never));
  }

  /** Updates the row with this id. */
  async update(em: EntityManager, id: string, patch: Partial<E>): Promise<void> {
    await em.update(this.kind.entity, { id } as never, patch as never);
  }

  // ---- links to work items --------------------------------------------------------------------

  /** The owner's live links, in no order. */
  links(em: EntityManager, ownerId: string): Promise<L[]> {
    return em.getRepository(this.kind.link).find({ where: { [this.kind.owner]: ownerId } as never });
  }

  /** The owner's live links, oldest first (the answer of an add). */
  linksOldestFirst(em: EntityManager, ownerId: string): Promise<L[]> {
    return em
      .getRepository(this.kind.link)
      .find({ where: { [this.kind.owner]: ownerId } as never, order: { createdAt: 'ASC', id: 'ASC' } as never });
  }

  /** The live links of these work items, to any owner (or, with `ownerId`, to that one). */
  linksOfIssues(em: EntityManager, issueIds: string[], ownerId?: string): Promise<L[]> {
    const where: Record<string, unknown> = { issueId: In(issueIds) };
    if (ownerId !== undefined) where[this.kind.owner] = ownerId;
    return em.getRepository(this.kind.link).find({ where: where as never });
  }

  /** The owner's live link to the work item, or null. */
  findLink(em: EntityManager, ownerId: string, issueId: string): Promise<L | null> {
    return em.getRepository(this.kind.link).findOne({ where: { [this.kind.owner]: ownerId, issueId } as never });
  }

  /** Inserts link rows (none: nothing sent). */
  async insertLinks(em: EntityManager, rows: Array<Partial<L>>): Promise<void> {
    if (rows.length) await em.insert(this.kind.link, rows as never);
  }

  /** Updates the links with these ids. */
  async updateLinks(em: EntityManager, ids: string[], patch: Partial<L>): Promise<void> {
    await em.update(this.kind.link, { id: In(ids) } as never, patch as never);
  }

  /** Deletes the link with this id (a hard delete: the row goes). */
  async deleteLink(em: EntityManager, id: string): Promise<void> {
    await em.delete(this.kind.link, { id } as never);
  }

  /** Deletes every link of the owner. */
  async deleteLinksOf(em: EntityManager, ownerId: string): Promise<void> {
    await em.delete(this.kind.link, { [this.kind.owner]: ownerId } as never);
  }

  /** The owner's work items as the issue room's door reads them: the link table, its owner column and `id`. */
  linkScope(id: string): PlanningLinkScope {
    return { table: this.kind.table, column: this.kind.column, id };
  }

  // ---- counts, sums and favourites of a page ---------------------------------------------------

  /** Work item counts of each owner by state group (see `countIssues`). */
  countIssues(em: EntityManager, ids: string[]): Promise<Map<string, IssueCounts>> {
    return countIssues(em, this.kind.table, ids);
  }

  /** Estimate point sums of each owner by state group (see `sumEstimatePoints`). */
  sumEstimatePoints(em: EntityManager, ids: string[]): Promise<Map<string, EstimatePointSums>> {
    return sumEstimatePoints(em, this.kind.table, ids);
  }

  /** Live, non-archived, non-draft work items with a parent among the owner's (Plane's `sub_issues`). */
  subIssuesOf(em: EntityManager, id: string): Promise<number> {
    return countSubIssues(em, this.kind.table, this.kind.column, id);
  }

  /** The rows among `ids` `userId` has a favourite of (Plane's `is_favorite`); one statement. */
  favoriteIds(em: EntityManager, userId: string, ids: string[]): Promise<Set<string>> {
    return favoriteIdsOf(em, this.kind.favorite, userId, ids);
  }

  /** The row's distributions of `units`, in that order, in one statement (see `distributions`). */
  distributionsOf(
    em: EntityManager,
    id: string,
    units: DistributionUnit[],
    opts: DistributionOptions,
  ): Promise<Distribution[]> {
    return distributions(em, { table: this.kind.table, column: this.kind.column, id }, units, opts);
  }

  // ---- reads for the rooms above (through PlanningService)

  /** The project's live, unarchived rows `{id, name}`, oldest first. */
  openNames(projectId: string): Promise<Array<Pick<E, 'id' | 'name'>>> {
    return this.dataSource.getRepository(this.kind.entity).find({
      select: { id: true, name: true } as never,
      where: { projectId, archivedAt: IsNull() } as never,
      order: { createdAt: 'ASC', id: 'ASC' } as never,
    });
  }

  /**
   * The unarchived rows of `userId`'s live, unarchived projects of the workspace (active
   * membership; one project with `projectId`) whose name contains `q` (when given), newest first,
   * at most `limit`: `{name, id, project_id, project__identifier, workspace__slug}`, and `status`
   * with `withStatus` (the entity search). The project and workspace rooms' tables are joined by
   * entity name: the caller's scope and the rows' project keys, in this one statement. With
   * `opts.batch`, sent in it (the search room's `ReadBatch`).
   */
  searchOfMember(
    workspaceId: string,
    userId: string,
    q: string,
    opts: { projectId?: string; limit: number; withStatus: boolean; batch?: ReadBatch },
  ): Promise<unknown[]> {
    const a = this.kind.alias;
    const values: unknown[] = [userId, workspaceId, opts.limit];
    const project = opts.projectId ? ` AND p.id = $${values.push(opts.projectId)}` : '';
    const named = q ? ` AND ${a}.name ILIKE $${values.push(likeContaining(q))} ESCAPE '\\'` : '';
    const text = `SELECT ${a}.name, ${a}.id, p.id AS project_id, p.identifier AS project__identifier,${
      opts.withStatus ? ` ${this.kind.status} AS status,` : ''
    } w.slug AS workspace__slug
FROM ${this.dataSource.getMetadata(this.kind.entity).tableName} ${a}
JOIN projects p ON p.id = ${a}.project_id AND p.deleted_at IS NULL AND p.archived_at IS NULL
JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $1 AND pm.is_active = true AND pm.deleted_at IS NULL
JOIN workspaces w ON w.id = p.workspace_id AND w.deleted_at IS NULL
WHERE p.workspace_id = $2 AND ${a}.archived_at IS NULL AND ${a}.deleted_at IS NULL${project}${named}
ORDER BY ${a}.created_at DESC${opts.withStatus ? `, ${a}.id DESC` : ''} LIMIT $3`;
    return readIn(opts.batch, this.dataSource, text, values);
  }

  /** `external_id` → id of the project's live rows that came from `source` (`external_source`): the import's dedupe. */
  externalIds(projectId: string, source: string, em: EntityManager = this.manager): Promise<Map<string, string>> {
    return externalIdMap(em, this.kind.entity, 'project_id', projectId, source);
  }

  /** The ids of the work items linked to the owner (live links). */
  async issueIdsOf(ownerId: string, em: EntityManager = this.manager): Promise<Set<string>> {
    const rows = await em
      .createQueryBuilder()
      .select('x.issue_id AS issue_id')
      .from(this.kind.link, 'x')
      .where(`x.${this.kind.column} = :id AND x.deleted_at IS NULL`, { id: ownerId })
      .getRawMany<{ issue_id: string }>();
    return new Set(rows.map((r) => r.issue_id));
  }
}

/** The `kind` of a link table's rows in `planning_issue_tallies` (migration `PlanningTallies`). */
function tallyKind(table: 'cycle_issues' | 'module_issues'): 'c' | 'm' {
  return table === 'cycle_issues' ? 'c' : 'm';
}

/**
 * Counts of the live, non-archived, non-draft work items linked to each cycle or module, by state
 * group (as Plane's `plane/api/views/cycle.py`, `module.py` count them). A work item without a state
 * counts as backlog. Read from `planning_issue_tallies` (migration `PlanningTallies`: per owner,
 * state and estimate point, kept by triggers) joined with the states: a few rows per owner, whatever
 * its number of work items. `table` tells cycles (`cycle_issues`) from modules (`module_issues`).
 */
export async function countIssues(
  em: EntityManager,
  table: 'cycle_issues' | 'module_issues',
  ids: string[],
): Promise<Map<string, IssueCounts>> {
  const out = new Map<string, IssueCounts>(ids.map((id) => [id, { ...ZERO_COUNTS }]));
  if (!ids.length) return out;
  const params = ids.map((_, n) => `$${n + 2}`).join(', ');
  const rows: Array<{ id: string; grp: string | null; n: number | string }> = await em.query(
    `SELECT t.owner_id AS id, s."group" AS grp, SUM(t.n) AS n
       FROM planning_issue_tallies t
       LEFT JOIN states s ON s.id = t.state_id
      WHERE t.kind = $1 AND t.owner_id IN (${params})
      GROUP BY t.owner_id, s."group"`,
    [tallyKind(table), ...ids],
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
 * cycle or module (points that are not numbers, as in a `categories` estimate, count 0): each
 * tally row's count times its point's value, the points read when asked.
 */
export async function sumEstimatePoints(
  em: EntityManager,
  table: 'cycle_issues' | 'module_issues',
  ids: string[],
): Promise<Map<string, EstimatePointSums>> {
  const zero = (): EstimatePointSums => ({
    total_estimate_points: 0,
    completed_estimate_points: 0,
    cancelled_estimate_points: 0,
    started_estimate_points: 0,
    unstarted_estimate_points: 0,
    backlog_estimate_points: 0,
  });
  const out = new Map<string, EstimatePointSums>(ids.map((id) => [id, zero()]));
  if (!ids.length) return out;
  const params = ids.map((_, n) => `$${n + 2}`).join(', ');
  const rows: Array<{ id: string; grp: string | null; n: number | string }> = await em.query(
    `SELECT t.owner_id AS id, s."group" AS grp,
            SUM(t.n * CASE WHEN ep.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ep.value::numeric ELSE 0 END) AS n
       FROM planning_issue_tallies t
       JOIN estimate_points ep ON ep.id = t.estimate_point_id AND ep.deleted_at IS NULL
       LEFT JOIN states s ON s.id = t.state_id
      WHERE t.kind = $1 AND t.owner_id IN (${params})
      GROUP BY t.owner_id, s."group"`,
    [tallyKind(table), ...ids],
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
