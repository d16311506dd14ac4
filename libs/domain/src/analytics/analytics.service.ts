import { isUuid, MeridianError } from '#common';
import { Injectable, Logger } from '@nestjs/common';
import { MailService } from '../mail';
import { IssueQueryService } from '../issue';
import type { IssueFilterSet } from '../issue';
import { assertViewFilters, planeQuery, viewIssueFilters } from '../view';
import { AnalyticView } from './analytic-view.entity';
import {
  ANALYTICS_AXES,
  ANALYTICS_MEASURES,
  AnalyticsAxis,
  AnalyticsMeasure,
  AnalyticsRepository,
  chartTallied,
  AnalyticsScope,
  ChartRow,
} from './analytics.repository';

/** A chart's parameters (Plane's `x_axis`, `y_axis`, `segment`). */
export interface ChartParams {
  x_axis?: unknown;
  y_axis?: unknown;
  segment?: unknown;
}

/** A checked chart. */
export interface Chart {
  x: AnalyticsAxis;
  y: AnalyticsMeasure;
  segment?: AnalyticsAxis;
}

/** What creates or changes a saved chart (Plane's `AnalyticViewSerializer` writable fields). */
export interface AnalyticViewInput {
  name?: string;
  description?: string;
  query_dict?: Record<string, unknown>;
}

/** Plane's `build_graph_plot` answer: rows grouped by `String(dimension)`, in Plane's key order. */
export type Distribution = Record<string, ChartRow[]>;

/** Column names of the analytics export (Plane's `row_mapping`). */
const COLUMN_NAMES: Record<string, string> = {
  state__name: 'State',
  state__group: 'State Group',
  labels__id: 'Label',
  assignees__id: 'Assignee Name',
  start_date: 'Start Date',
  target_date: 'Due Date',
  completed_at: 'Completed At',
  created_at: 'Created At',
  issue_count: 'Issue Count',
  priority: 'Priority',
  estimate: 'Estimate',
  issue_cycle__cycle_id: 'Cycle',
  issue_module__module_id: 'Module',
};

/** A chart's details of one axis: read from the scope, or by the ids of the chart's dimensions. */
type DetailsOf<T> = (of: T) => Promise<ChartRow[]>;

/** The open state groups (Plane's `state__group__in=["backlog", "unstarted", "started"]`). */
const OPEN_GROUPS: readonly string[] = ['backlog', 'unstarted', 'started'];

/** Priorities in the order Plane's `sort_data` lists them. */
const PRIORITY_ORDER = ['low', 'medium', 'high', 'urgent', 'none'];

const isAxis = (v: unknown): v is AnalyticsAxis =>
  typeof v === 'string' && (ANALYTICS_AXES as readonly string[]).includes(v);
const isMeasure = (v: unknown): v is AnalyticsMeasure =>
  typeof v === 'string' && (ANALYTICS_MEASURES as readonly string[]).includes(v);
/** Plane's `request.GET.get(name, False)`: absent or empty is "not given". */
const given = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== false;

/**
 * Analytics of a workspace (Plane 0.25.3 `app/views/analytic/base.py`: `AnalyticsEndpoint`,
 * `DefaultAnalyticsEndpoint`, `ProjectStatsEndpoint`, `AnalyticViewViewset`,
 * `SavedAnalyticEndpoint`) and the home graphs of the caller's own work (`app/views/workspace/user.py`
 * `UserActivityGraphEndpoint`, `UserIssueCompletedGraphEndpoint`; `base.py`
 * `UserWorkspaceDashboardEndpoint`). Every count is over the work items of the projects the caller
 * is an active member of (a Guest's under the Guest rule), not the whole workspace as in Plane
 * (docs/decisions.md, "Analytics").
 */
@Injectable()
export class AnalyticsService {
  private readonly logger = new Logger('Analytics');

  constructor(
    private readonly repo: AnalyticsRepository,
    private readonly mail: MailService,
    private readonly issues: IssueQueryService,
  ) {}

  /**
   * `POST export-analytics/` (Plane's `ExportAnalyticsEndpoint`, `bgtasks/analytic_plot_export.py`):
   * the chart as a CSV (Plane's rows: the x value's name, the total, one column per segment) mailed
   * to `email` in the background; answers Plane's message at once. 400 `SMTP_NOT_CONFIGURED` when no
   * mail can be delivered (production without SMTP; elsewhere the message goes to the log).
   */
  async exportChart(scope: AnalyticsScope, chart: Chart, email: string): Promise<{ message: string }> {
    await this.mail.assertCanDeliver();
    setImmediate(() => {
      this.chartCsv(scope, chart)
        .then((csv) =>
          this.mail.send({
            to: email,
            subject: 'Your Export is ready',
            text: 'Your analytics export is attached.',
            attachments: [{ filename: 'analytics.csv', content: csv, contentType: 'text/csv' }],
          }),
        )
        .catch((err: unknown) =>
          this.logger.warn({ reason: err instanceof Error ? err.message : String(err) }, 'Analytics export failed'),
        );
    });
    return { message: `Once the export is ready it will be emailed to you at ${email}` };
  }

  /** Plane's CSV of a chart (`generate_segmented_rows`, `generate_non_segmented_rows`), every field quoted. */
  async chartCsv(scope: AnalyticsScope, chart: Chart): Promise<string> {
    const [rows, names] = await Promise.all([this.rows(scope, chart), this.names(scope, chart)]);
    const dist = groupRows(rows, chart.x);
    const key = chart.y === 'issue_count' ? 'count' : 'estimate';
    const name = (v: unknown) => names.get(String(v)) ?? String(v);
    const table: unknown[][] = [];
    if (chart.segment) {
      const segments = [...new Set(rows.map((r) => r.segment))];
      table.push([COLUMN_NAMES[chart.x] ?? 'X-Axis', COLUMN_NAMES[chart.y] ?? 'Y-Axis', ...segments.map(name)]);
      for (const [x, data] of Object.entries(dist)) {
        const total = data.reduce((n, r) => n + (typeof r[key] === 'number' ? (r[key] as number) : 0), 0);
        table.push([name(x), total, ...segments.map((s) => data.find((r) => r.segment === s)?.[key] ?? '0')]);
      }
    } else {
      table.push([COLUMN_NAMES[chart.x] ?? 'X-Axis', COLUMN_NAMES[chart.y] ?? 'Y-Axis']);
      for (const [x, data] of Object.entries(dist)) table.push([name(x), data[0][key]]);
    }
    return table.map((r) => r.map((v) => `"${String(v ?? '').replace(/"/g, '""')}"`).join(',')).join('\r\n') + '\r\n';
  }

  /**
   * Checks a chart as Plane does: 400 `ANALYTICS_AXIS_INVALID` without a valid `x_axis` and
   * `y_axis`; 400 `ANALYTICS_SEGMENT_INVALID` for a segment that is not an axis or equals `x_axis`.
   * `estimatePointAxis`: the axis name of the estimate's value (`estimate_point__value`; Plane's
   * export-analytics spells it `estimate_point`, which is read as the same axis).
   */
  checkChart(params: ChartParams, estimatePointAxis = 'estimate_point__value'): Chart {
    const alias = (v: unknown) => (v === estimatePointAxis ? 'estimate_point__value' : v);
    const x = alias(params.x_axis);
    const y = params.y_axis;
    if (!given(x) || !given(y) || !isAxis(x) || !isMeasure(y)) throw new MeridianError('ANALYTICS_AXIS_INVALID');
    const segment = given(params.segment) ? alias(params.segment) : undefined;
    if (segment !== undefined && (!isAxis(segment) || segment === x))
      throw new MeridianError('ANALYTICS_SEGMENT_INVALID');
    return { x, y, segment: segment as AnalyticsAxis | undefined };
  }

  /**
   * `GET analytics/`: `{total, distribution, extras}`. `distribution` maps each `x_axis` value to
   * its rows (`{dimension, segment?, count | estimate}`), priorities in Plane's order, other keys
   * sorted with `none` last; `extras` carries the details (names, colours, avatars) of the states,
   * labels, assignees, cycles and modules the chart names, each `{}` unless the chart uses it.
   */
  async chart(scope: AnalyticsScope, chart: Chart) {
    const [total, rows] = await Promise.all([this.total(scope), this.chartRows(scope, chart)]);
    const lookups: Array<[AnalyticsAxis, DetailsOf<AnalyticsScope>, DetailsOf<string[]>]> = [
      ['state_id', (s) => this.repo.stateDetails(s), (ids) => this.repo.stateNames(ids)],
      ['labels__id', (s) => this.repo.labelDetails(s), (ids) => this.repo.labelNames(ids)],
      ['assignees__id', (s) => this.repo.assigneeDetails(s), (ids) => this.repo.assigneeNames(ids)],
      ['issue_cycle__cycle_id', (s) => this.repo.cycleDetails(s), (ids) => this.repo.cycleNames(ids)],
      ['issue_module__module_id', (s) => this.repo.moduleDetails(s), (ids) => this.repo.moduleNames(ids)],
    ];
    const [states, labels, assignees, cycles, modules] = await Promise.all(
      lookups.map(([axis, fromScope, byIds]) => this.details(scope, chart, rows, axis, fromScope, byIds)),
    );
    return {
      total,
      distribution: groupRows(rows, chart.x),
      extras: {
        state_details: states,
        assignee_details: assignees,
        label_details: labels,
        cycle_details: cycles,
        module_details: modules,
      },
    };
  }

  /**
   * How many work items the scope holds: with no filter, the viewer's projects' counters (one row
   * each; `IssueQueryService.workspaceVisibleCount`), unless the Guest rule narrows one of them;
   * else a count.
   */
  private async total(scope: AnalyticsScope): Promise<number> {
    const counted = this.repo.unfiltered(scope)
      ? await this.issues.workspaceVisibleCount(scope.workspaceId, scope.viewerId)
      : null;
    return counted ?? this.repo.count(scope);
  }

  /**
   * A chart's `extras` entry for `axis` (`{}` unless the chart uses it): the details of the values
   * the scope's work items have on that axis. When the axis is the chart's `x_axis`, those values are
   * the chart's dimensions (a work item without one is left out of both), so only their names are
   * read; as a segment they are read from the scope (`fromScope`): the chart leaves out the work
   * items without an `x` value, and their segment values with them.
   */
  private details(
    scope: AnalyticsScope,
    chart: Chart,
    rows: ChartRow[],
    axis: AnalyticsAxis,
    fromScope: DetailsOf<AnalyticsScope>,
    byIds: DetailsOf<string[]>,
  ): Promise<ChartRow[] | Record<string, never>> {
    if (chart.x === axis) {
      const ids = [...new Set(rows.map((r) => r.dimension).filter((v): v is string => typeof v === 'string'))];
      return ids.length ? byIds(ids) : Promise.resolve([]);
    }
    if (chart.segment === axis) return fromScope(scope);
    return Promise.resolve({});
  }

  /** The rows of a chart, for the analytics export (`dimension`, `segment`, the measure). */
  rows(scope: AnalyticsScope, chart: Chart): Promise<ChartRow[]> {
    return this.chartRows(scope, chart);
  }

  /**
   * A chart's rows: from the tallies per assignee and per label, or per month of a date, when they
   * give the same rows (an assignee, label or date chart counted, `chartTallied`, with no filter, or
   * filters that keep every work item of the scope, `keptWhole`, and no Guest rule narrowing a
   * project of the viewer: `tallyWhole`), else one pass over the scope (`AnalyticsRepository.chart`).
   */
  private async chartRows(scope: AnalyticsScope, chart: Chart): Promise<ChartRow[]> {
    if (chartTallied(chart.x, chart.y, chart.segment)) {
      const whole = this.repo.unfiltered(scope) ? scope : await this.repo.keptWhole(scope);
      if (whole && (await this.repo.tallyWhole(whole))) return this.repo.talliedChart(whole, chart.x, chart.segment);
    }
    return this.repo.chart(scope, chart.x, chart.y, chart.segment);
  }

  /** `default-analytics/`' assignee lists: from the tallies per assignee when `tallyWhole` holds, else one pass. */
  private async assigned(scope: AnalyticsScope): Promise<{ completed: ChartRow[]; pending: ChartRow[] }> {
    return (await this.repo.tallyWhole(scope)) ? this.repo.byAssigneeTallied(scope) : this.repo.byAssignee(scope);
  }

  /** Names for the dimensions of a chart's export: state, label, cycle and module ids → names, assignee ids → `first last` (Plane's). */
  async names(scope: AnalyticsScope, chart: Chart): Promise<Map<string, string>> {
    const uses = (axis: AnalyticsAxis) => chart.x === axis || chart.segment === axis;
    const out = new Map<string, string>();
    const put = (rows: ChartRow[], id: string, name: (r: ChartRow) => string) => {
      for (const r of rows) if (r[id] !== null) out.set(String(r[id]), name(r));
    };
    if (uses('state_id')) put(await this.repo.stateDetails(scope), 'state_id', (r) => String(r.state__name));
    if (uses('labels__id')) put(await this.repo.labelDetails(scope), 'labels__id', (r) => String(r.labels__name));
    if (uses('assignees__id'))
      put(
        await this.repo.assigneeDetails(scope),
        'assignees__id',
        (r) => `${String(r.assignees__first_name ?? '')} ${String(r.assignees__last_name ?? '')}`,
      );
    if (uses('issue_cycle__cycle_id'))
      put(await this.repo.cycleDetails(scope), 'issue_cycle__cycle_id', (r) => String(r.issue_cycle__cycle__name));
    if (uses('issue_module__module_id'))
      put(await this.repo.moduleDetails(scope), 'issue_module__module_id', (r) => String(r.issue_module__module__name));
    return out;
  }

  /**
   * `GET default-analytics/` (Plane's `DefaultAnalyticsEndpoint`): totals by state group, open work
   * items, completions per month of this year (UTC), the top creators and closers, the pending work
   * per assignee, and the sums of the legacy `point` field.
   */
  async defaults(scope: AnalyticsScope) {
    // two passes over the scope: by state group, month of completion and creator; by assignee
    const [overview, assigned] = await Promise.all([
      this.repo.overview(scope, new Date().getUTCFullYear()),
      this.assigned(scope),
    ]);
    const groups = new Map<string | null, number>();
    const months = new Map<number, number>();
    let total = 0;
    let open = 0;
    let openPoints: number | null = null;
    let points: number | null = null;
    for (const r of overview.groups) {
      const n = Number(r.n);
      const p = r.points === null ? null : Number(r.points);
      total += n;
      groups.set(r.state_group, (groups.get(r.state_group) ?? 0) + n);
      if (r.month !== null) months.set(Number(r.month), (months.get(Number(r.month)) ?? 0) + n);
      if (p !== null) points = (points ?? 0) + p;
      if (r.state_group !== null && OPEN_GROUPS.includes(r.state_group)) {
        open += n;
        if (p !== null) openPoints = (openPoints ?? 0) + p;
      }
    }
    // by group name, the work items without a (known) state last and counted 0 (Plane's `Count("state__group")`)
    const classified = [...groups.entries()]
      .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a < b ? -1 : a > b ? 1 : 0))
      .map(([group, n]) => ({ state_group: group, state_count: group === null ? 0 : n }));
    return {
      total_issues: total,
      total_issues_classified: classified,
      open_issues: open,
      open_issues_classified: classified.filter((r) => r.state_group !== null && OPEN_GROUPS.includes(r.state_group)),
      issue_completed_month_wise: [...months.entries()]
        .sort(([a], [b]) => a - b)
        .map(([month, count]) => ({ month, count })),
      most_issue_created_user: overview.creators,
      most_issue_closed_user: assigned.completed,
      pending_issue_user: assigned.pending,
      open_estimate_sum: openPoints,
      total_estimate_sum: points,
    };
  }

  /**
   * `GET project-stats/` (Plane's `ProjectStatsEndpoint`): `[{id, <field>…}]` for the projects the
   * caller may see; `fields` (comma-separated) picks among `total_issues`, `completed_issues`,
   * `total_members`, `total_cycles`, `total_modules` (none valid: all); `project_ids` narrows
   * (400 `INVALID_QUERY_PARAMETER` for an id that is not a UUID).
   */
  async projectStats(
    workspaceId: string,
    viewerId: string,
    fields: string | undefined,
    projectIds: string | undefined,
  ) {
    const valid = ['total_issues', 'completed_issues', 'total_members', 'total_cycles', 'total_modules'];
    const asked = new Set((fields ?? '').split(',').filter((f) => valid.includes(f)));
    const ids = projectIds ? projectIds.split(',').map((v) => v.trim()) : undefined;
    if (ids && !ids.every(isUuid))
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'project_ids must be comma-separated UUIDs.');
    const wanted = asked.size ? asked : new Set(valid);
    // `total_issues`: the projects' counters of visible work items, not a count of each project
    const counted = new Set([...wanted].filter((f) => f !== 'total_issues'));
    const rows = await this.repo.projectStats(
      workspaceId,
      viewerId,
      counted,
      ids?.map((v) => v.toLowerCase()),
    );
    if (!wanted.has('total_issues')) return rows;
    const totals = await this.issues.visibleCounts(rows.map((r) => String(r.id)));
    return rows.map(({ id, ...rest }) => ({ id, total_issues: totals.get(String(id)) ?? 0, ...rest }));
  }

  // ---- saved charts ---------------------------------------------------------------------------

  /** The workspace's saved charts, newest first. */
  async listViews(workspaceId: string) {
    return (await this.repo.listViews(workspaceId)).map(analyticViewJson);
  }

  /** One saved chart; 404 when it is not the workspace's. */
  async getView(workspaceId: string, id: string) {
    return analyticViewJson(await this.findView(workspaceId, id));
  }

  /** 201; 422 for a missing name or a bad filter in `query_dict`. `query` is derived from `query_dict`. */
  async createView(workspaceId: string, actorId: string, input: AnalyticViewInput) {
    if (input.query_dict) assertViewFilters(input.query_dict);
    const view = this.repo.newView({
      workspaceId,
      name: input.name,
      description: input.description ?? '',
      queryDict: input.query_dict ?? {},
      query: input.query_dict ? planeQuery(input.query_dict) : {},
      createdById: actorId,
      updatedById: actorId,
    });
    return analyticViewJson(await this.repo.saveView(view));
  }

  /** Partial update (`name`, `description`, `query_dict`); 404 when it is not the workspace's. */
  async updateView(workspaceId: string, id: string, actorId: string, input: AnalyticViewInput) {
    const view = await this.findView(workspaceId, id);
    if (input.query_dict) assertViewFilters(input.query_dict);
    if (input.name !== undefined) view.name = input.name;
    if (input.description !== undefined) view.description = input.description;
    if (input.query_dict !== undefined) {
      view.queryDict = input.query_dict;
      view.query = planeQuery(input.query_dict);
    }
    view.updatedById = actorId;
    return analyticViewJson(await this.repo.saveView(view));
  }

  /** Soft delete; 404 when it is not the workspace's. */
  async deleteView(workspaceId: string, id: string): Promise<void> {
    await this.findView(workspaceId, id);
    await this.repo.softDeleteView(id);
  }

  /**
   * `GET saved-analytic-view/{id}/` (Plane's `SavedAnalyticEndpoint`): the saved chart's
   * `{total, distribution}` over its filters; `segment` from the request. 400
   * `ANALYTICS_AXIS_INVALID` when the saved `query_dict` has no valid axes.
   */
  async savedChart(scope: Omit<AnalyticsScope, 'filters'>, id: string, segment: unknown) {
    const view = await this.findView(scope.workspaceId, id);
    const q = view.queryDict;
    const chart = this.checkChart({ x_axis: q.x_axis, y_axis: q.y_axis, segment });
    const filters: IssueFilterSet = { ...viewIssueFilters(q) };
    const projects = typeof q.project === 'string' ? q.project.split(',') : Array.isArray(q.project) ? q.project : [];
    const ids = projects.filter((v): v is string => typeof v === 'string' && isUuid(v));
    if (ids.length) filters.project = ids.map((v) => v.toLowerCase());
    const full: AnalyticsScope = { ...scope, filters };
    const [total, rows] = await Promise.all([this.total(full), this.repo.chart(full, chart.x, chart.y, chart.segment)]);
    return { total, distribution: groupRows(rows, chart.x) };
  }

  private async findView(workspaceId: string, id: string): Promise<AnalyticView> {
    const view = await this.repo.findView(workspaceId, id);
    if (!view) throw new MeridianError('NOT_FOUND');
    return view;
  }

  // ---- the home graphs --------------------------------------------------------------------------

  /** `[{created_date, activity_count}]` of the caller's history entries in the last `months` months (UTC days). */
  activityGraph(workspaceId: string, userId: string, months: number) {
    const since = new Date();
    since.setUTCMonth(since.getUTCMonth() - months);
    return this.repo.activityByDay(workspaceId, userId, since.toISOString().slice(0, 10));
  }

  /** `[{week, completed_count}]`: the caller's assigned work items completed in calendar month `month`, by ISO week modulo 4. */
  completedGraph(workspaceId: string, userId: string, month: number) {
    return this.repo.completedInMonth(assignedTo(workspaceId, userId), month);
  }

  /** Plane's `UserWorkspaceDashboardEndpoint` of the caller's assigned work items. */
  async dashboard(workspaceId: string, userId: string, month: number) {
    const scope = assignedTo(workspaceId, userId);
    const [activities, { counts, states, completed, overdue, upcoming }] = await Promise.all([
      this.activityGraph(workspaceId, userId, 3),
      this.repo.dashboardFigures(scope, month),
    ]);
    return {
      issue_activities: activities,
      completed_issues: completed,
      assigned_issues_count: counts.assigned,
      pending_issues_count: counts.pending,
      completed_issues_count: counts.completed,
      issues_due_week_count: counts.dueThisWeek,
      state_distribution: states,
      overdue_issues: overdue,
      upcoming_issues: upcoming,
    };
  }
}

/** The caller's assigned work items of the workspace. */
function assignedTo(workspaceId: string, userId: string): AnalyticsScope {
  return { workspaceId, viewerId: userId, filters: { assignee: [userId] }, assignedTo: userId };
}

/** Plane's `build_graph_plot` grouping and `sort_data` order. */
function groupRows(rows: ChartRow[], x: AnalyticsAxis): Distribution {
  const groups = new Map<string, ChartRow[]>();
  for (const row of rows) {
    const key = String(row.dimension);
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  let keys = [...groups.keys()];
  if (x === 'priority') keys = PRIORITY_ORDER.filter((k) => groups.has(k));
  else keys.sort((a, b) => ((a === 'none') !== (b === 'none') ? (a === 'none' ? 1 : -1) : a < b ? -1 : a > b ? 1 : 0));
  const out: Distribution = {};
  for (const k of keys) out[k] = groups.get(k)!;
  return out;
}

/** Plane's `AnalyticViewSerializer` (fields `__all__`). */
export function analyticViewJson(v: AnalyticView) {
  return {
    id: v.id,
    created_at: v.createdAt,
    updated_at: v.updatedAt,
    deleted_at: v.deletedAt,
    name: v.name,
    description: v.description,
    query: v.query,
    query_dict: v.queryDict,
    created_by: v.createdById,
    updated_by: v.updatedById,
    workspace: v.workspaceId,
  };
}
