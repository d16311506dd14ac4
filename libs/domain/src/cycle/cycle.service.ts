import { MeridianError, Page, PageRequest, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActivityEntry, ChangeContext, IssueQueryService, writeActivities } from '../issue';
import { EstimateService } from '../estimate';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertExternalIdFree } from '../kernel/external-id';
import { assertProjectWritable } from '../kernel/project-writable';
import { isTimezone } from '../kernel/timezone';
import { ProjectMemberService, ProjectService } from '../project';
import { Cycle } from './cycle.entity';
import { CycleIssue } from './cycle-issue.entity';
import { AppCycleJson, appCycleView } from './cycle.app-view';
import { CycleJson, cycleIssueView, cycleView } from './cycle.view';
import { CycleRepository } from './cycle.repository';
import { favoritesFirst, PlanningService } from './planning.service';
import { zonedInstant } from './zoned-date';
import { burndown, dayIn } from './burndown';
import type { DistributionRow } from './distribution.repository';
import { emitChange } from '../kernel/change-bus';

/** Writable cycle fields, Plane's names (`plane/api/serializers/cycle.py` CycleSerializer). */
export interface CycleInput {
  name?: string;
  description?: string;
  /** `YYYY-MM-DD` (the start of that day in the cycle's time zone) or an ISO 8601 instant */
  start_date?: string | null;
  /** `YYYY-MM-DD` (the end of that day, 23:59:59, in the cycle's time zone) or an ISO 8601 instant */
  end_date?: string | null;
  owned_by?: string;
  view_props?: Record<string, unknown>;
  progress_snapshot?: Record<string, unknown>;
  logo_props?: Record<string, unknown>;
  sort_order?: number;
  external_source?: string | null;
  external_id?: string | null;
  timezone?: string;
}

const CYCLE_FIELDS: Array<keyof CycleInput> = [
  'name',
  'description',
  'start_date',
  'end_date',
  'owned_by',
  'view_props',
  'progress_snapshot',
  'logo_props',
  'sort_order',
  'external_source',
  'external_id',
  'timezone',
];

export const CYCLE_VIEWS = ['all', 'current', 'upcoming', 'completed', 'draft', 'incomplete'] as const;
export type CycleView = (typeof CYCLE_VIEWS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Plane's `CycleAnalyticsEndpoint` answer. */
export interface CycleAnalytics {
  assignees: DistributionRow[];
  labels: DistributionRow[];
  completion_chart: Record<string, number | null>;
}

/** State groups of the work items a transfer moves (no state counts as open too). */
const OPEN_GROUPS = ['backlog', 'unstarted', 'started'] as const;

/** True when the cycle's end is in the past (Plane: "the cycle has already been completed"). */
export function hasEnded(c: Cycle, now = new Date()): boolean {
  return !!c.endDate && c.endDate.getTime() < now.getTime();
}

/**
 * Cycles (sprints) of a project and their work items (Plane `plane/api/views/cycle.py`;
 * `plane-node-sdk/dist/api/Cycles.js`, `plane-mcp-server/build/tools/cycles.js`). Adding, moving and
 * removing work items writes each work item's history (`field: "cycles"`) in the same transaction.
 */
@Injectable()
export class CycleService extends PlanningService<Cycle, CycleIssue, CycleJson, ReturnType<typeof cycleIssueView>> {
  protected readonly kind = 'cycle';
  protected readonly addConflict = {
    // a concurrent add of the same work item to another cycle
    index: 'uq_cycle_issues_issue',
    message: 'A work item was added to another cycle at the same time; retry.',
  };

  constructor(
    private readonly cycles: CycleRepository,
    @InjectDataSource() dataSource: DataSource,
    issues: IssueQueryService,
    projects: ProjectService,
    projectMembers: ProjectMemberService,
    private readonly estimates: EstimateService,
  ) {
    super(cycles, dataSource, issues, projects, projectMembers);
  }

  /**
   * Non-archived cycles, newest first, paginated; `cycle_view` narrows: `current` (start ≤ now ≤ end;
   * a plain array, not paginated, as Plane), `upcoming` (start > now), `completed` (end < now),
   * `draft` (no dates), `incomplete` (end ≥ now or no end), `all` (default).
   */
  async list(projectId: string, page: PageRequest, view: CycleView = 'all'): Promise<Page<CycleJson> | CycleJson[]> {
    const now = new Date();
    if (view === 'current') return this.render(await this.cycles.listCurrent(projectId, now));
    return this.renderRows(await this.cycles.listPage(projectId, page, view, now));
  }

  /**
   * Non-archived cycles of every project of the workspace the user is an active member of, newest
   * first, with counts (Plane's `WorkspaceCyclesEndpoint`, which lists the whole workspace's).
   */
  async listForWorkspace(workspaceId: string, userId: string): Promise<CycleJson[]> {
    return this.render(await this.cycles.listForMember(workspaceId, userId));
  }

  /** Archived cycles, newest first, paginated (`archived-cycles/`). */
  async listArchived(projectId: string, page: PageRequest): Promise<Page<CycleJson>> {
    return this.renderRows(await this.cycles.listArchivedPage(projectId, page));
  }

  /**
   * `POST cycles/date-check/` (Plane's `CycleDateCheckEndpoint`): `{status: true}` when no other live
   * cycle of the project (`cycleId`: the one being edited, left out) meets the days from `start` to
   * `end` in the project's time zone, else `{error, status: false}` (200 both, as in Plane). Both
   * dates are required and start ≤ end (422; Plane answers 400).
   */
  async dateCheck(
    projectId: string,
    start: string | null,
    end: string | null,
    cycleId: string | null,
  ): Promise<{ status: boolean; error?: string }> {
    if (!start || !end)
      throw validationError({ [start ? 'end_date' : 'start_date']: ['Start date and end date both are required.'] });
    const project = await this.projects.liveOrFail(projectId);
    const [s, e] = this.dates(start, end, this.timezone(project.timezone ?? 'UTC'));
    if (await this.cycles.overlaps(projectId, s!, e!, cycleId)) {
      return {
        error:
          'You have a cycle already on the given dates, if you want to create a draft cycle you can do that by removing dates',
        status: false,
      };
    }
    return { status: true };
  }

  /**
   * Creates a cycle (201): `owned_by` defaults to the caller (else an active project member, 422);
   * dates both or neither (422), start ≤ end (422); `sort_order` defaults to the project's lowest − 10000
   * (65535 for the first); `timezone` defaults to the project's. 409 `EXTERNAL_ID_TAKEN` with the holder's `id`.
   */
  async create(ctx: ChangeContext, input: CycleInput & { name: string }): Promise<CycleJson> {
    return this.guard(async () => {
      const id = await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        await assertExternalIdFree(em, Cycle, ctx.projectId, input.external_source, input.external_id);
        const project = await this.projects.liveOrFail(ctx.projectId, em);
        const timezone = this.timezone(input.timezone ?? project.timezone ?? 'UTC');
        const [startDate, endDate] = this.dates(input.start_date ?? null, input.end_date ?? null, timezone);
        const ownedById = input.owned_by ? await this.assertMember(em, ctx.projectId, input.owned_by) : ctx.userId;
        let sortOrder = input.sort_order;
        if (sortOrder === undefined) {
          const min = await this.cycles.lowestSortOrder(em, ctx.projectId);
          sortOrder = min === null ? 65535 : min - 10000;
        }
        const cycle = await this.cycles.insert(em, {
          workspaceId: ctx.workspaceId,
          projectId: ctx.projectId,
          name: input.name.trim(),
          description: input.description ?? '',
          startDate,
          endDate,
          ownedById,
          viewProps: input.view_props ?? {},
          progressSnapshot: input.progress_snapshot ?? {},
          logoProps: input.logo_props ?? {},
          sortOrder,
          externalSource: input.external_source ?? null,
          externalId: input.external_id ?? null,
          timezone,
          createdById: ctx.userId,
          updatedById: ctx.userId,
        });
        await emitChange(em, 'model.changed', { kind: 'cycle', action: 'created', row: cycle, actorId: ctx.userId });
        return cycle.id;
      });
      return this.retrieve(ctx.projectId, id);
    });
  }

  /**
   * Partial update (200). An archived cycle is 400 `CYCLE_ARCHIVED`; a cycle that has ended accepts
   * only `sort_order` (anything else: 400 `CYCLE_COMPLETED`; unlike Plane, the rest of the body is
   * never applied). Dates: both or neither, start ≤ end (422). 409 `EXTERNAL_ID_TAKEN`.
   */
  async update(ctx: ChangeContext, cycleId: string, input: CycleInput): Promise<CycleJson> {
    return this.guard(async () => {
      await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const cycle = await this.load(em, ctx.projectId, cycleId, true);
        if (cycle.archivedAt) throw new MeridianError('CYCLE_ARCHIVED');
        await emitChange(em, 'model.changed', { kind: 'cycle', action: 'updated', row: cycle, actorId: ctx.userId });
        const keys = CYCLE_FIELDS.filter((k) => input[k] !== undefined);
        if (hasEnded(cycle) && keys.some((k) => k !== 'sort_order')) throw new MeridianError('CYCLE_COMPLETED');
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            Cycle,
            ctx.projectId,
            input.external_source !== undefined ? input.external_source : cycle.externalSource,
            input.external_id !== undefined ? input.external_id : cycle.externalId,
            cycleId,
          );
        }
        const patch: Partial<Cycle> = { updatedById: ctx.userId, updatedAt: new Date() };
        const timezone = input.timezone !== undefined ? this.timezone(input.timezone) : cycle.timezone;
        if (input.start_date !== undefined || input.end_date !== undefined || input.timezone !== undefined) {
          const [start, end] = this.dates(
            input.start_date !== undefined ? input.start_date : (cycle.startDate?.toISOString() ?? null),
            input.end_date !== undefined ? input.end_date : (cycle.endDate?.toISOString() ?? null),
            timezone,
          );
          patch.startDate = start;
          patch.endDate = end;
          patch.timezone = timezone;
        }
        if (input.name !== undefined) patch.name = input.name.trim();
        if (input.description !== undefined) patch.description = input.description;
        if (input.owned_by !== undefined) patch.ownedById = await this.assertMember(em, ctx.projectId, input.owned_by);
        if (input.view_props !== undefined) patch.viewProps = input.view_props;
        if (input.progress_snapshot !== undefined) patch.progressSnapshot = input.progress_snapshot;
        if (input.logo_props !== undefined) patch.logoProps = input.logo_props;
        if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        await this.cycles.update(em, cycleId, patch);
      });
      return this.retrieve(ctx.projectId, cycleId);
    });
  }

  /**
   * Adds live work items of the project to the cycle (`addIssues`, `POST cycle-issues/`
   * `{issues: [ids]}`, runs it in a transaction of its own; empty or foreign ids: 422). A work item
   * in another cycle is moved here (history: "updated cycle"); others get "added cycle". A cycle
   * that has ended is 400 `CYCLE_COMPLETED`, an archived one 400 `CYCLE_ARCHIVED`. Publishing a
   * draft calls it in the create's transaction; that caller maps a `uq_cycle_issues_issue` violation.
   */
  async addIssuesIn(em: EntityManager, ctx: ChangeContext, cycleId: string, ids: string[]): Promise<void> {
    await assertProjectWritable(em, ctx.projectId);
    const cycle = await this.load(em, ctx.projectId, cycleId, true);
    if (cycle.archivedAt) throw new MeridianError('CYCLE_ARCHIVED');
    if (hasEnded(cycle))
      throw new MeridianError(
        'CYCLE_COMPLETED',
        'The cycle has already been completed, so no work items can be added to it.',
      );
    const issues = await this.issuesOfProject(em, ctx.projectId, ids);
    const current = await this.cycles.linksOfIssues(
      em,
      issues.map((i) => i.id),
    );
    const others = current.filter((l) => l.cycleId !== cycleId);
    const oldCycles = others.length
      ? await this.cycles.findWithDeleted(em, [...new Set(others.map((l) => l.cycleId))])
      : [];
    const history: ActivityEntry[] = [];
    for (const issue of issues) {
      const link = current.find((l) => l.issueId === issue.id);
      if (link?.cycleId === cycleId) continue;
      if (link) {
        const old = oldCycles.find((c) => c.id === link.cycleId);
        await this.cycles.updateLinks(em, [link.id], { cycleId, updatedById: ctx.userId, updatedAt: new Date() });
        history.push(movedEntry(issue.id, old ?? null, cycle));
      } else {
        await this.cycles.insertLinks(em, [
          {
            workspaceId: ctx.workspaceId,
            projectId: ctx.projectId,
            cycleId,
            issueId: issue.id,
            createdById: ctx.userId,
            updatedById: ctx.userId,
          },
        ]);
        history.push({
          issueId: issue.id,
          verb: 'updated',
          field: 'cycles',
          newValue: cycle.name,
          newIdentifier: cycle.id,
          comment: 'added cycle ',
        });
      }
    }
    await writeActivities(em, ctx, history);
  }

  /**
   * `POST transfer-issues/` `{new_cycle_id}` (200 `{"message": "Success"}`): moves the cycle's open work
   * items (state group backlog, unstarted or started, or no state) to another cycle of the project,
   * each with a history row, and saves the old cycle's counts in its `progress_snapshot`.
   * The source must have ended (400 `CYCLE_NOT_COMPLETED`); the target must not have ended nor be
   * archived (400 `CYCLE_TRANSFER_TARGET_COMPLETED`); a missing, unknown or same target is 422.
   */
  async transfer(ctx: ChangeContext, cycleId: string, newCycleId: string | undefined): Promise<{ message: string }> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const cycle = await this.load(em, ctx.projectId, cycleId, true);
      if (!newCycleId) throw validationError({ new_cycle_id: ['New Cycle Id is required.'] });
      if (newCycleId === cycleId)
        throw validationError({ new_cycle_id: ['Work items cannot be transferred to the same cycle.'] });
      const target = await this.cycles.findInProject(em, ctx.projectId, newCycleId);
      if (!target) throw validationError({ new_cycle_id: ['This cycle does not exist in the project.'] });
      if (!hasEnded(cycle))
        throw new MeridianError('CYCLE_NOT_COMPLETED', 'Only work items of a cycle that has ended can be transferred.');
      if (hasEnded(target) || target.archivedAt) throw new MeridianError('CYCLE_TRANSFER_TARGET_COMPLETED');
      const counts = (await this.cycles.countIssues(em, [cycleId])).get(cycleId)!;
      await this.cycles.update(em, cycleId, { progressSnapshot: { ...counts }, updatedById: ctx.userId });
      const links = await this.cycles.links(em, cycleId);
      const openIds = new Set(
        await this.issues.idsInStateGroupsOrNone(
          links.map((l) => l.issueId),
          OPEN_GROUPS,
          em,
        ),
      );
      const open = links.filter((l) => openIds.has(l.issueId));
      if (!open.length) return;
      await this.cycles.updateLinks(
        em,
        open.map((l) => l.id),
        { cycleId: target.id, updatedById: ctx.userId, updatedAt: new Date() },
      );
      await writeActivities(
        em,
        ctx,
        open.map((l) => movedEntry(l.issueId, cycle, target)),
      );
    });
    return { message: 'Success' };
  }

  /** Archives a cycle (204); only one that has ended (400 `CYCLE_NOT_COMPLETED`, also without an end date). */
  protected assertArchivable(cycle: Cycle): void {
    if (!hasEnded(cycle)) throw new MeridianError('CYCLE_NOT_COMPLETED', 'Only completed cycles can be archived.');
  }

  /**
   * Cycles in the App API's shape (`appCycleView`): Plane's progress annotations (the counts plus
   * `*_estimate_points` sums), `status`, `assignee_ids`, the `_id` keys and `userId`'s `is_favorite`
   * (false without a user), in one statement per annotation for the whole page. `detail` adds
   * `sub_issues` (Plane's retrieve); `favoritesFirst` moves the favourites to the front, keeping the
   * order otherwise (Plane's lists: `order_by("-is_favorite", "-created_at")`).
   */
  async withProgress<T extends CycleJson>(
    cycles: T[],
    userId: string | null,
    opts: { detail?: boolean; favoritesFirst?: boolean } = {},
  ): Promise<Array<AppCycleJson & T>> {
    const em = this.cycles.manager;
    const ids = cycles.map((c) => c.id);
    const sums = await this.cycles.sumEstimatePoints(em, ids);
    const assignees = await this.cycles.assigneeIds(em, ids);
    const favorites = userId === null ? new Set<string>() : await this.cycles.favoriteIds(em, userId, ids);
    const now = new Date();
    const out: Array<AppCycleJson & T> = [];
    for (const c of cycles) {
      const sub_issues = opts.detail ? await this.cycles.subIssuesOf(em, c.id) : undefined;
      const extras = { assignee_ids: assignees.get(c.id)!, is_favorite: favorites.has(c.id), sub_issues };
      out.push(appCycleView({ ...c, ...sums.get(c.id)! }, extras, now));
    }
    return opts.favoritesFirst ? favoritesFirst(out) : out;
  }

  /**
   * `cycles/{id}/progress/` (Plane's CycleProgressEndpoint): work item counts and estimate point
   * sums by state group; 404 as `retrieve`.
   */
  async progress(projectId: string, cycleId: string) {
    const [c] = await this.withProgress([await this.retrieve(projectId, cycleId)], null);
    const keys = ['total', 'completed', 'cancelled', 'started', 'unstarted', 'backlog'] as const;
    return Object.fromEntries(
      keys.flatMap((k) => [
        [`${k}_issues`, c[`${k}_issues`]],
        [`${k}_estimate_points`, c[`${k}_estimate_points`]],
      ]),
    );
  }

  /**
   * `cycles/{id}/analytics/?type=issues|points` (Plane's `CycleAnalyticsEndpoint`):
   * `{assignees, labels, completion_chart}`. By `issues` (the default), rows count the cycle's
   * visible work items (`total_issues`, `completed_issues`, `pending_issues`); by `points`, and only
   * when the project's estimate is of type `points`, they sum the estimate points
   * (`*_estimates`); any other case answers empty lists and `{}`. `completion_chart` is the
   * burndown over the cycle's days in its time zone, days after today at today's amount (`burndown`). Archived cycles too; 404
   * `NOT_FOUND` for a cycle of another project or while the project is archived. A draft cycle
   * answers its rows and an empty `completion_chart` (Plane: 400, which its own web app meets).
   */
  async analytics(projectId: string, cycleId: string, type: string): Promise<CycleAnalytics> {
    const em = this.cycles.manager;
    if (await this.projects.isArchived(projectId, em)) throw new MeridianError('NOT_FOUND');
    const cycle = await this.load(em, projectId, cycleId);
    const unit = type === 'issues' ? 'issues' : type === 'points' ? 'points' : null;
    if (unit === null || (unit === 'points' && !(await this.estimates.usesPointEstimate(projectId, em)))) {
      return { assignees: [], labels: [], completion_chart: {} };
    }
    const tz = this.chartTimezone(cycle.timezone);
    const d = await this.cycles.distribution(em, cycle.id, unit, tz);
    // a draft cycle has no days to chart: its rows, and an empty chart
    const chart =
      cycle.startDate && cycle.endDate
        ? burndown(dayIn(cycle.startDate, tz), dayIn(cycle.endDate, tz), d.total, d.completed, dayIn(new Date(), tz))
        : {};
    return { assignees: d.assignees, labels: d.labels, completion_chart: chart };
  }

  /** The cycle's time zone when `Intl` knows it, else UTC. */
  private chartTimezone(tz: string): string {
    try {
      dayIn(new Date(), tz);
      return tz;
    } catch {
      return 'UTC';
    }
  }

  protected async render(cycles: Cycle[]): Promise<CycleJson[]> {
    const counts = await this.cycles.countIssues(
      this.cycles.manager,
      cycles.map((c) => c.id),
    );
    return cycles.map((c) => cycleView(c, counts.get(c.id)));
  }

  protected linkView(link: CycleIssue, subIssues: number) {
    return cycleIssueView(link, subIssues);
  }

  private timezone(tz: string): string {
    if (!isTimezone(tz) && !knownToIntl(tz)) throw validationError({ timezone: [`"${tz}" is not a valid choice.`] });
    return tz;
  }

  /** Both or neither; a day is the start (00:00:00) or end (23:59:59) of that day in `tz`; start ≤ end. */
  private dates(start: string | null, end: string | null, tz: string): [Date | null, Date | null] {
    if ((start === null) !== (end === null)) {
      throw validationError({
        [start === null ? 'start_date' : 'end_date']: [
          'Both start date and end date are either required or are to be null.',
        ],
      });
    }
    if (start === null || end === null) return [null, null];
    const read = (v: string, field: string, endOfDay: boolean) => {
      if (DAY.test(v)) {
        const d = zonedInstant(v, tz, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0);
        if (Number.isNaN(d.getTime()) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)))
          throw validationError({ [field]: ['Date has wrong format. Use YYYY-MM-DD.'] });
        return d;
      }
      const t = Date.parse(v);
      if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(v))
        throw validationError({ [field]: ['Date has wrong format. Use YYYY-MM-DD or an ISO 8601 datetime.'] });
      return new Date(t);
    };
    const s = read(start, 'start_date', false);
    const e = read(end, 'end_date', true);
    if (s.getTime() > e.getTime()) throw validationError({ start_date: ['Start date cannot exceed end date.'] });
    return [s, e];
  }

  private async assertMember(em: EntityManager, projectId: string, userId: string): Promise<string> {
    if (!(await this.projectMembers.activeMemberIdsAmong(projectId, [userId], em)).length)
      throw validationError({ owned_by: ['The owner must be an active member of the project.'] });
    return userId;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_cycles_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }
}

/** Also accepts links such as `Asia/Kolkata`, which `Intl.supportedValuesOf` lists under their canonical name only. */
function knownToIntl(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.includes('/');
  } catch {
    return false;
  }
}

function movedEntry(issueId: string, from: Cycle | null, to: Cycle): ActivityEntry {
  return {
    issueId,
    verb: 'updated',
    field: 'cycles',
    oldValue: from?.name ?? null,
    newValue: to.name,
    oldIdentifier: from?.id ?? null,
    newIdentifier: to.id,
    comment: `updated cycle from ${from?.name ?? ''} to ${to.name}`,
  };
}
