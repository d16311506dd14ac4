import { ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  bindPositional,
  guestCondition,
  issueFilterConditions,
  LIVE_PROJECT,
  talliedFilters,
  tallyProjects,
  VISIBLE_ISSUE,
} from '../issue';
import type { IssueFilterSet } from '../issue';
import { AnalyticView } from './analytic-view.entity';

/**
 * Which work items a chart counts: the visible work items (not deleted, archived, draft or waiting
 * in intake; live project) of the workspace's projects `viewerId` is an active member of, a project
 * Guest's under the Guest rule, narrowed by Plane's list filters.
 */
export interface AnalyticsScope {
  workspaceId: string;
  viewerId: string;
  filters: IssueFilterSet;
  /**
   * The work items assigned to this user (also in `filters.assignee`), read from that user's
   * assignment rows first (`ownAssigned`, over the work items, not their tallies): the home's scope
   * of the caller's assigned work items.
   */
  assignedTo?: string;
}

/**
 * `i.id = ANY(ARRAY(…))` of the work items assigned to `user` (an SQL value): the same rows as the
 * assignee filter's `EXISTS`, which it accompanies, but the statement reads the user's assignment
 * rows (`ix_issue_assignees_assignee_created`, index only) and looks their work items up by id,
 * where PostgreSQL planned the `EXISTS` as a scan of every work item of the workspace hashed
 * against them (some 1 s at a million work items for a user's ten thousand).
 */
const ownAssigned = (user: string) =>
  `i.id = ANY(ARRAY(SELECT ib.issue_id FROM issue_assignees ib WHERE ib.assignee_id = ${user}::uuid))`;

/** A public project's `network` (the project room's `NETWORK.PUBLIC`). */
const PUBLIC_NETWORK = 2;

/** `x_axis` and `segment` values (Plane's `valid_xaxis_segment` in `AnalyticsEndpoint`). */
export const ANALYTICS_AXES = [
  'state_id',
  'state__group',
  'labels__id',
  'assignees__id',
  'estimate_point__value',
  'issue_cycle__cycle_id',
  'issue_module__module_id',
  'priority',
  'start_date',
  'target_date',
  'created_at',
  'completed_at',
] as const;
export type AnalyticsAxis = (typeof ANALYTICS_AXES)[number];

/** `y_axis` values. */
export const ANALYTICS_MEASURES = ['issue_count', 'estimate'] as const;
export type AnalyticsMeasure = (typeof ANALYTICS_MEASURES)[number];

/** One row of a chart: `dimension`, `segment` when segmented, and `count` or `estimate`. */
export type ChartRow = Record<string, string | number | null>;

/** A numeric estimate point value over alias `ep` (Plane casts the value to a float; other values count as none). */
const numericPoint = (ep: string) => `CASE WHEN ${ep}.value ~ '^-?[0-9]+(\\.[0-9]+)?$' THEN ${ep}.value::float8 END`;

/** `<year>-<month>` of a date or time (Plane's `annotate_with_monthly_dimension`, months unpadded, UTC). */
const month = (column: string, time: boolean) => {
  const v = time ? `(${column} AT TIME ZONE 'UTC')` : column;
  return `(EXTRACT(YEAR FROM ${v})::int::text || '-' || EXTRACT(MONTH FROM ${v})::int::text)`;
};

/**
 * The SQL of one axis over alias `a`: the key the work items are grouped by (`key`, with the join
 * it needs), and the axis's value over that key once grouped (`value`, over `g.<k>`, with the join
 * it needs then). The state group is grouped by the state, then named: the states are joined to
 * the groups, not to every work item. (A month stays the key itself: PostgreSQL estimates a
 * `date_trunc` of a time as many groups as there are times, and plans the aggregate without its
 * parallel workers.)
 */
function axisSql(
  axis: AnalyticsAxis,
  a: string,
  k: string,
): { key: string; join: string; value: string; valueJoin: string } {
  const plain = (key: string, join = '') => ({ key, join, value: `g.${k}`, valueJoin: '' });
  switch (axis) {
    case 'state_id':
      return plain('i.state_id::text');
    case 'state__group':
      return {
        key: 'i.state_id',
        join: '',
        value: `${a}."group"::text`,
        valueJoin: `LEFT JOIN states ${a} ON ${a}.id = g.${k}`,
      };
    case 'labels__id':
      return plain(
        `${a}.label_id::text`,
        `LEFT JOIN (SELECT il.issue_id, il.label_id FROM issue_labels il JOIN labels l ON l.id = il.label_id AND l.deleted_at IS NULL) ${a} ON ${a}.issue_id = i.id`,
      );
    case 'assignees__id':
      return plain(`${a}.assignee_id::text`, `LEFT JOIN issue_assignees ${a} ON ${a}.issue_id = i.id`);
    case 'estimate_point__value':
      return plain(
        `${a}.value::text`,
        `LEFT JOIN estimate_points ${a} ON ${a}.id = i.estimate_point_id AND ${a}.deleted_at IS NULL`,
      );
    case 'issue_cycle__cycle_id':
      return plain(
        `${a}.cycle_id::text`,
        `LEFT JOIN (SELECT ci.issue_id, ci.cycle_id FROM cycle_issues ci JOIN cycles c ON c.id = ci.cycle_id AND c.deleted_at IS NULL WHERE ci.deleted_at IS NULL) ${a} ON ${a}.issue_id = i.id`,
      );
    case 'issue_module__module_id':
      return plain(
        `${a}.module_id::text`,
        `LEFT JOIN (SELECT mi.issue_id, mi.module_id FROM module_issues mi JOIN modules m ON m.id = mi.module_id AND m.deleted_at IS NULL WHERE mi.deleted_at IS NULL) ${a} ON ${a}.issue_id = i.id`,
      );
    case 'priority':
      return plain('i.priority::text');
    case 'start_date':
    case 'target_date':
      return plain(month(`i.${axis}`, false));
    case 'created_at':
    case 'completed_at':
      return plain(month(`i.${axis}`, true));
  }
}

/**
 * The date axes and their `axis` key in the tallies per month (`issue_date_tallies`, migration
 * `IssueDateTallies`).
 */
const DATE_AXES: Partial<Record<AnalyticsAxis, string>> = {
  created_at: 'c',
  completed_at: 'd',
  start_date: 's',
  target_date: 't',
};

/**
 * Whether a chart can be read from the tallies (`talliedChart`), counted (`issue_count`): an
 * `assignees__id` or `labels__id` x axis without a segment or segmented by state or state group
 * (the tallies per assignee and per label), or a date x axis (`created_at`, `completed_at`,
 * `start_date`, `target_date`) without a segment (the tallies per month).
 */
export function chartTallied(x: AnalyticsAxis, y: AnalyticsMeasure, segment: AnalyticsAxis | undefined): boolean {
  if (y !== 'issue_count') return false;
  if (DATE_AXES[x]) return segment === undefined;
  return (
    (x === 'assignees__id' || x === 'labels__id') &&
    (segment === undefined || segment === 'state_id' || segment === 'state__group')
  );
}

/** The axes whose value is a key of the visible work items' tallies (`project_issue_tallies`). */
const TALLY_AXES: ReadonlySet<AnalyticsAxis> = new Set(['state_id', 'state__group', 'priority']);

/** A user's name fields and avatar under Plane's `<prefix>__` keys, over the users alias `u`. */
const userFields = (prefix: string) =>
  `u.first_name AS ${prefix}__first_name, u.last_name AS ${prefix}__last_name, u.display_name AS ${prefix}__display_name, u.id::text AS ${prefix}__id, u.avatar AS ${prefix}__avatar_url`;

/**
 * All of the analytics room's SQL (Plane 0.25.3 `app/views/analytic/base.py`,
 * `utils/analytics_plot.py`, `app/views/workspace/base.py` and `user.py` for the home graphs), in
 * plain SQL over the visible work items of an `AnalyticsScope`; and the saved charts
 * (`analytic_views`).
 */
@Injectable()
export class AnalyticsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `FROM issues i JOIN projects p … WHERE …` of the scope, its values appended to `params`. */
  private scoped(scope: AnalyticsScope, params: unknown[], joins = ''): string {
    return this.over('issues', ['i.deleted_at IS NULL', VISIBLE_ISSUE], scope, params, joins);
  }

  /**
   * `scoped` as the tallies of its work items (`project_issue_tallies`, migration `IssueTallies`:
   * the visible work items per project, state, priority and creator, kept exact by triggers), when
   * the filters read only those keys (`talliedFilters`), else undefined: `SUM(i.n)` over it,
   * grouped by any of those keys, is `COUNT(*)` over `scoped`, a few rows read instead of every
   * work item. The Guest rule reads the creator, a key too.
   */
  private tallied(scope: AnalyticsScope, params: unknown[], joins = ''): string | undefined {
    return talliedFilters(scope.filters) ? this.over('project_issue_tallies', [], scope, params, joins) : undefined;
  }

  /**
   * `FROM <table> i JOIN projects p … WHERE …` over rows `i` with the work item's columns (`issues`
   * or its tallies): the scope's workspace, `rows`' own conditions, the caller's projects with the
   * Guest rule, and the filters; the values appended to `params`.
   */
  private over(table: string, rows: string[], scope: AnalyticsScope, params: unknown[], joins: string): string {
    const bind = bindPositional(params);
    const ws = bind(scope.workspaceId);
    const viewer = bind(scope.viewerId);
    const where = [
      `i.workspace_id = ${ws}`,
      ...rows,
      `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = i.project_id AND pm.member_id = ${viewer}
        AND pm.is_active = true AND pm.deleted_at IS NULL AND (pm.role > ${ROLE.GUEST} OR ${guestCondition(scope.viewerId, bind)}))`,
      ...issueFilterConditions(scope.filters, bind),
      ...(scope.assignedTo && table === 'issues' ? [ownAssigned(bind(scope.assignedTo))] : []),
    ];
    return `FROM ${table} i JOIN projects p ON p.id = i.project_id AND ${LIVE_PROJECT} ${joins} WHERE ${where.join(' AND ')}`;
  }

  /** Whether the scope has no filter (Plane's list filters compile to no condition). */
  unfiltered(scope: AnalyticsScope): boolean {
    return issueFilterConditions(scope.filters, bindPositional([])).length === 0;
  }

  /** How many work items the scope holds (a sum of their tallies when the filters allow: `tallied`). */
  async count(scope: AnalyticsScope): Promise<number> {
    const params: unknown[] = [];
    const tallied = this.tallied(scope, params);
    const rows: Array<{ n: number }> = await this.dataSource.query(
      tallied
        ? `SELECT COALESCE(SUM(i.n), 0)::int AS n ${tallied}`
        : `SELECT COUNT(*)::int AS n ${this.scoped(scope, params)}`,
      params,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Plane's `build_graph_plot` rows: per `x` value (work items without one left out), and per
   * `segment` value when given (null for none), the number of work items or the sum of their numeric
   * estimate points, ordered by dimension then segment. A count by state, state group or
   * priority (and a segment of them) sums the scope's tallies when the filters allow (`tallied`;
   * groups of 0 left out, as a count has none).
   */
  async chart(
    scope: AnalyticsScope,
    x: AnalyticsAxis,
    y: AnalyticsMeasure,
    segment: AnalyticsAxis | undefined,
  ): Promise<ChartRow[]> {
    const xs = axisSql(x, 'ax', 'kx');
    const ss = segment ? axisSql(segment, 'sg', 'ks') : undefined;
    const joins = [xs.join, ss?.join ?? ''];
    let measure = 'COUNT(*) AS n';
    let total = 'SUM(g.n)::int AS count';
    if (y === 'estimate') {
      joins.push('LEFT JOIN estimate_points yp ON yp.id = i.estimate_point_id AND yp.deleted_at IS NULL');
      measure = `SUM(${numericPoint('yp')}) AS n`;
      total = 'SUM(g.n) AS estimate';
    }
    const params: unknown[] = [];
    const tallied =
      y === 'issue_count' && TALLY_AXES.has(x) && (!segment || TALLY_AXES.has(segment))
        ? this.tallied(scope, params)
        : undefined;
    if (tallied) measure = 'SUM(i.n) AS n';
    const from = tallied ?? this.scoped(scope, params, joins.join(' '));
    const having = tallied ? ' HAVING SUM(i.n) > 0' : '';
    const keys = ss ? `${xs.key} AS kx, ${ss.key} AS ks` : `${xs.key} AS kx`;
    const cols = ss ? `${xs.value} AS dimension, ${ss.value} AS segment` : `${xs.value} AS dimension`;
    const by = ss ? '1, 2' : '1';
    return this.dataSource.query(
      `SELECT ${cols}, ${total}
       FROM (SELECT ${keys}, ${measure} ${from} GROUP BY ${by}${having}) g ${xs.valueJoin} ${ss?.valueJoin ?? ''}
       WHERE ${xs.value} IS NOT NULL
       GROUP BY ${by} ORDER BY ${by}`,
      params,
    );
  }

  /**
   * The scope without its filters when they keep every work item of it, else undefined: filters
   * that read only the keys of the visible work items' tallies (`talliedFilters`: state, state
   * group, priority, creator, project), whose sum over the scope's tallies equals the sum without
   * them (the filtered work items are among the unfiltered ones, and as many: the same). A chart of
   * such a scope is the unfiltered scope's, which the tallies per month, assignee and label may
   * answer (`tallyWhole`); a filter that leaves out any work item, or that the tallies cannot read:
   * undefined.
   */
  async keptWhole(scope: AnalyticsScope): Promise<AnalyticsScope | undefined> {
    if (this.unfiltered(scope) || !talliedFilters(scope.filters)) return undefined;
    const whole: AnalyticsScope = { ...scope, filters: {} };
    const params: unknown[] = [];
    const filtered = this.tallied(scope, params)!;
    const all = this.tallied(whole, params)!;
    const rows: Array<{ same: boolean }> = await this.dataSource.query(
      `SELECT (SELECT COALESCE(SUM(i.n), 0) ${filtered}) = (SELECT COALESCE(SUM(i.n), 0) ${all}) AS same`,
      params,
    );
    return rows[0]?.same === true ? whole : undefined;
  }

  /**
   * Whether the tallies per assignee and per label (`issue_set_tallies`) may answer for the scope:
   * no filter, and no Guest rule narrowing one of the viewer's projects (`tallyProjects`' `whole`;
   * false when the viewer has no project, where counting is as cheap).
   */
  async tallyWhole(scope: AnalyticsScope): Promise<boolean> {
    if (!this.unfiltered(scope)) return false;
    const params: unknown[] = [];
    const projects = tallyProjects(scope, bindPositional(params));
    const rows: Array<{ whole: boolean | null }> = await this.dataSource.query(
      `SELECT bool_and(sp.whole) AS whole FROM (${projects}) sp`,
      params,
    );
    return rows[0]?.whole === true;
  }

  /**
   * `chart`'s rows from the tallies, for an `assignees__id` or `labels__id` x axis counted
   * (`issue_count`), without a segment or segmented by `state_id` or `state__group`, or a date x
   * axis counted without a segment (`issue_date_tallies`: per `<year>-<month>` as `month(...)`
   * writes it): the same rows in the same order (per value, work items without one left out; a
   * deleted label's left out as the chart's join does), when `tallyWhole` holds and `chartTallied`
   * (the caller checks both).
   */
  talliedChart(scope: AnalyticsScope, x: AnalyticsAxis, segment: AnalyticsAxis | undefined): Promise<ChartRow[]> {
    const params: unknown[] = [];
    const projects = tallyProjects(scope, bindPositional(params));
    const dateAxis = DATE_AXES[x];
    if (dateAxis)
      return this.dataSource.query(
        `SELECT t.year::text || '-' || t.month::text AS dimension, SUM(t.n)::int AS count FROM issue_date_tallies t
         WHERE t.axis = '${dateAxis}' AND t.project_id IN (SELECT sp.id FROM (${projects}) sp)
         GROUP BY 1 HAVING SUM(t.n) > 0 ORDER BY 1`,
        params,
      );
    const seg =
      segment === 'state_id' ? ', t.state_id::text AS segment' : segment ? ', s."group"::text AS segment' : '';
    const joins = [
      x === 'labels__id' ? 'JOIN labels l ON l.id = t.value_id AND l.deleted_at IS NULL' : '',
      segment === 'state__group' ? 'LEFT JOIN states s ON s.id = t.state_id' : '',
    ].join(' ');
    const by = segment ? '1, 2' : '1';
    return this.dataSource.query(
      `SELECT t.value_id::text AS dimension${seg}, SUM(t.n)::int AS count FROM issue_set_tallies t ${joins}
       WHERE t.kind = '${x === 'labels__id' ? 'l' : 'a'}' AND t.value_id IS NOT NULL
       AND t.project_id IN (SELECT sp.id FROM (${projects}) sp)
       GROUP BY ${by} HAVING SUM(t.n) > 0 ORDER BY ${by}`,
      params,
    );
  }

  /**
   * `extras.state_details`: `{state_id, state__name, state__color}` of the states in the scope (from
   * its tallies when the filters allow, `tallied`: a state with a tally above 0).
   */
  stateDetails(scope: AnalyticsScope): Promise<ChartRow[]> {
    const params: unknown[] = [];
    const join = 'JOIN states s ON s.id = i.state_id';
    const tallied = this.tallied(scope, params, join);
    return this.dataSource.query(
      `SELECT DISTINCT i.state_id::text AS state_id, s.name AS state__name, s.color AS state__color
       ${tallied ? `${tallied} AND i.n > 0` : this.scoped(scope, params, join)} ORDER BY 1`,
      params,
    );
  }

  /** `extras.label_details`: `{labels__id, labels__color, labels__name}`. */
  labelDetails(scope: AnalyticsScope): Promise<ChartRow[]> {
    const params: unknown[] = [];
    return this.dataSource.query(
      `SELECT DISTINCT l.id::text AS labels__id, l.color AS labels__color, l.name AS labels__name
       ${this.scoped(scope, params, 'JOIN issue_labels il ON il.issue_id = i.id JOIN labels l ON l.id = il.label_id AND l.deleted_at IS NULL')}
       ORDER BY 1`,
      params,
    );
  }

  /** `extras.assignee_details`: `{assignees__avatar_url, assignees__display_name, assignees__first_name, assignees__last_name, assignees__id}`. */
  assigneeDetails(scope: AnalyticsScope): Promise<ChartRow[]> {
    const params: unknown[] = [];
    return this.dataSource.query(
      `SELECT DISTINCT u.avatar AS assignees__avatar_url, u.display_name AS assignees__display_name,
         u.first_name AS assignees__first_name, u.last_name AS assignees__last_name, u.id::text AS assignees__id
       ${this.scoped(scope, params, 'JOIN issue_assignees ia ON ia.issue_id = i.id JOIN users u ON u.id = ia.assignee_id')}
       ORDER BY 5`,
      params,
    );
  }

  /** `extras.cycle_details`: `{issue_cycle__cycle_id, issue_cycle__cycle__name}`. */
  cycleDetails(scope: AnalyticsScope): Promise<ChartRow[]> {
    const params: unknown[] = [];
    return this.dataSource.query(
      `SELECT DISTINCT c.id::text AS issue_cycle__cycle_id, c.name AS issue_cycle__cycle__name
       ${this.scoped(scope, params, 'JOIN cycle_issues ci ON ci.issue_id = i.id AND ci.deleted_at IS NULL JOIN cycles c ON c.id = ci.cycle_id AND c.deleted_at IS NULL')}
       ORDER BY 1`,
      params,
    );
  }

  /** `extras.module_details`: `{issue_module__module_id, issue_module__module__name}`. */
  moduleDetails(scope: AnalyticsScope): Promise<ChartRow[]> {
    const params: unknown[] = [];
    return this.dataSource.query(
      `SELECT DISTINCT m.id::text AS issue_module__module_id, m.name AS issue_module__module__name
       ${this.scoped(scope, params, 'JOIN module_issues mi ON mi.issue_id = i.id AND mi.deleted_at IS NULL JOIN modules m ON m.id = mi.module_id AND m.deleted_at IS NULL')}
       ORDER BY 1`,
      params,
    );
  }

  /**
   * The overview of the scope in one pass (`default-analytics/`; two grouping sets of one
   * aggregate): `groups`, per state group (`null` for a work item whose state is unset or gone)
   * and per month of `year` its work items were completed in (`null`: not completed that year, UTC),
   * the number of work items (`n`) and the sum of their legacy `point` (`points`, null when none has
   * one); and `creators`, the five creators of the most work items (`created_by__*` keys and
   * `count`, most first, then by display name). The work items are grouped by their `state_id` and
   * creator first, the states and users joined to those groups, not to every work item. When the
   * filters allow the tallies (`tallied`), the counts per state and creator are their sums and only
   * the work items completed in `year` (the months) and those with a `point` (the sums) are read,
   * through migration `OverviewIndexes`' indexes: the same rows, a work item's count moved from the
   * state's month-less row to its month's.
   */
  async overview(
    scope: AnalyticsScope,
    year: number,
  ): Promise<{
    groups: Array<{ state_group: string | null; month: number | null; n: number; points: number | null }>;
    creators: ChartRow[];
  }> {
    const params: unknown[] = [];
    const tallied = this.tallied(scope, params);
    const rows: Array<{ groups: unknown; creators: unknown }> = await this.dataSource.query(
      tallied ? this.overviewTallied(scope, tallied, year, params) : this.overviewCounted(scope, year, params),
      params,
    );
    const json = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v as T[] | null) ?? []));
    const creators = json<ChartRow & { ord?: unknown }>(rows[0]?.creators).map(({ ord: _o, ...r }) => r);
    return { groups: json(rows[0]?.groups), creators };
  }

  /**
   * `overview`'s statement from the tallies (`tallied`, the `FROM` of the scope's tally rows): per
   * state the tallies' sum, less the work items completed in `year` (read per month), plus their
   * months, and the point sums of the work items with a `point`; the creators from the tallies.
   */
  private overviewTallied(scope: AnalyticsScope, tallied: string, year: number, params: unknown[]): string {
    const completed = this.scoped(scope, params);
    params.push(new Date(Date.UTC(year, 0, 1)).toISOString(), new Date(Date.UTC(year + 1, 0, 1)).toISOString());
    const [from, to] = [`$${params.length - 1}::timestamptz`, `$${params.length}::timestamptz`];
    const pointed = this.scoped(scope, params);
    return `WITH tl AS MATERIALIZED (SELECT i.state_id, i.created_by_id, SUM(i.n) AS n ${tallied} GROUP BY 1, 2),
       cm AS MATERIALIZED (
         SELECT i.state_id, EXTRACT(MONTH FROM (i.completed_at AT TIME ZONE 'UTC'))::int AS month, COUNT(*) AS n ${completed}
         AND i.completed_at >= ${from} AND i.completed_at < ${to} GROUP BY 1, 2),
       pt AS MATERIALIZED (SELECT i.state_id, SUM(i.point) AS points ${pointed} AND i.point IS NOT NULL GROUP BY 1),
       r AS (
         SELECT state_id, NULL::int AS month, SUM(n)::numeric AS n, NULL::numeric AS points FROM tl GROUP BY 1 HAVING SUM(n) > 0
         UNION ALL SELECT state_id, month, n, NULL FROM cm
         UNION ALL SELECT state_id, NULL, -n, NULL FROM cm
         UNION ALL SELECT state_id, NULL, 0, points FROM pt)
       SELECT
         (SELECT json_agg(x) FROM (
            SELECT s."group"::text AS state_group, r.month, SUM(r.n)::int AS n, (SUM(r.points))::float8 AS points
            FROM r LEFT JOIN states s ON s.id = r.state_id GROUP BY 1, 2) x) AS groups,
         (SELECT json_agg(c ORDER BY c.ord) FROM (
            SELECT ${userFields('created_by')}, g.n::int AS count, row_number() OVER (ORDER BY g.n DESC, u.display_name) AS ord
            FROM (SELECT created_by_id, SUM(n) AS n FROM tl GROUP BY 1 HAVING SUM(n) > 0) g
            JOIN users u ON u.id = g.created_by_id ORDER BY ord LIMIT 5) c) AS creators`;
  }

  /** `overview`'s statement as one pass over the scope's work items (two grouping sets). */
  private overviewCounted(scope: AnalyticsScope, year: number, params: unknown[]): string {
    const from = this.scoped(scope, params);
    params.push(year);
    const t = `(i.completed_at AT TIME ZONE 'UTC')`;
    return `WITH g AS MATERIALIZED (
         SELECT i.state_id, CASE WHEN EXTRACT(YEAR FROM ${t}) = $${params.length} THEN EXTRACT(MONTH FROM ${t})::int END AS month,
           i.created_by_id, GROUPING(i.created_by_id) AS by_state, COUNT(*) AS n, SUM(i.point) AS points
         ${from} GROUP BY GROUPING SETS ((1, 2), (3)))
       SELECT
         (SELECT json_agg(x) FROM (
            SELECT s."group"::text AS state_group, g.month, SUM(g.n)::int AS n, (SUM(g.points))::float8 AS points
            FROM g LEFT JOIN states s ON s.id = g.state_id WHERE g.by_state = 1 GROUP BY 1, 2) x) AS groups,
         (SELECT json_agg(c ORDER BY c.ord) FROM (
            SELECT ${userFields('created_by')}, g.n::int AS count, row_number() OVER (ORDER BY g.n DESC, u.display_name) AS ord
            FROM g JOIN users u ON u.id = g.created_by_id WHERE g.by_state = 0 ORDER BY ord LIMIT 5) c) AS creators`;
  }

  /**
   * Per assignee (`assignees__*` keys, `count`), in one pass over the scope's assignments: the work
   * items completed (`completed`: the five assignees with most) and not completed (`pending`:
   * every assignee, and one row of nulls for the unassigned and the assignees who are no users),
   * each most first, then by display name (nulls last).
   */
  byAssignee(scope: AnalyticsScope): Promise<{ completed: ChartRow[]; pending: ChartRow[] }> {
    const params: unknown[] = [];
    const from = this.scoped(scope, params, 'LEFT JOIN issue_assignees ia ON ia.issue_id = i.id');
    return this.assignedFrom(
      `SELECT ia.assignee_id, i.completed_at IS NOT NULL AS done, COUNT(*)::int AS n ${from} GROUP BY 1, 2`,
      params,
    );
  }

  /**
   * `byAssignee` from the tallies per assignee (`issue_set_tallies`, migration `IssueSetTallies`):
   * the same rows when the scope has no filter and no Guest rule narrows one of its projects
   * (`tallyWhole`; the caller checks both), without a pass over the work items.
   */
  byAssigneeTallied(scope: AnalyticsScope): Promise<{ completed: ChartRow[]; pending: ChartRow[] }> {
    const params: unknown[] = [];
    const projects = tallyProjects(scope, bindPositional(params));
    return this.assignedFrom(
      `SELECT t.value_id AS assignee_id, t.done, SUM(t.n)::int AS n FROM issue_set_tallies t
       WHERE t.kind = 'a' AND t.project_id IN (SELECT sp.id FROM (${projects}) sp) GROUP BY 1, 2 HAVING SUM(t.n) > 0`,
      params,
    );
  }

  /** `byAssignee`'s answer from `groups`, a statement of `(assignee_id, done, n)` rows, one per pair. */
  private async assignedFrom(
    groups: string,
    params: unknown[],
  ): Promise<{ completed: ChartRow[]; pending: ChartRow[] }> {
    const rows: Array<ChartRow & { kind: string }> = await this.dataSource.query(
      `WITH g AS MATERIALIZED (${groups})
       SELECT * FROM (
         SELECT 'completed' AS kind, ${userFields('assignees')}, g.n AS count,
           row_number() OVER (ORDER BY g.n DESC, u.display_name NULLS LAST) AS ord
         FROM g JOIN users u ON u.id = g.assignee_id WHERE g.done) c
       WHERE c.ord <= 5
       UNION ALL
       SELECT 'pending' AS kind, ${userFields('assignees')}, SUM(g.n)::int AS count,
         row_number() OVER (ORDER BY SUM(g.n) DESC, u.display_name NULLS LAST) AS ord
       FROM g LEFT JOIN users u ON u.id = g.assignee_id WHERE NOT g.done GROUP BY u.id`,
      params,
    );
    const pick = (kind: string) =>
      rows
        .filter((r) => r.kind === kind)
        .sort((a, b) => Number(a.ord) - Number(b.ord))
        .map(({ kind: _k, ord: _o, ...r }) => r);
    return { completed: pick('completed'), pending: pick('pending') };
  }

  // ---- names of the values a chart shows (its `extras`), by id ------------------------------------

  /** `extras.state_details` of these states (`state_id` order as text). */
  stateNames(ids: string[]): Promise<ChartRow[]> {
    return this.dataSource.query(
      `SELECT s.id::text AS state_id, s.name AS state__name, s.color AS state__color
       FROM states s WHERE s.id = ANY($1::uuid[]) ORDER BY 1`,
      [ids],
    );
  }

  /** `extras.label_details` of these live labels. */
  labelNames(ids: string[]): Promise<ChartRow[]> {
    return this.dataSource.query(
      `SELECT l.id::text AS labels__id, l.color AS labels__color, l.name AS labels__name
       FROM labels l WHERE l.id = ANY($1::uuid[]) AND l.deleted_at IS NULL ORDER BY 1`,
      [ids],
    );
  }

  /** `extras.assignee_details` of these users. */
  assigneeNames(ids: string[]): Promise<ChartRow[]> {
    return this.dataSource.query(
      `SELECT u.avatar AS assignees__avatar_url, u.display_name AS assignees__display_name,
         u.first_name AS assignees__first_name, u.last_name AS assignees__last_name, u.id::text AS assignees__id
       FROM users u WHERE u.id = ANY($1::uuid[]) ORDER BY 5`,
      [ids],
    );
  }

  /** `extras.cycle_details` of these live cycles. */
  cycleNames(ids: string[]): Promise<ChartRow[]> {
    return this.dataSource.query(
      `SELECT c.id::text AS issue_cycle__cycle_id, c.name AS issue_cycle__cycle__name
       FROM cycles c WHERE c.id = ANY($1::uuid[]) AND c.deleted_at IS NULL ORDER BY 1`,
      [ids],
    );
  }

  /** `extras.module_details` of these live modules. */
  moduleNames(ids: string[]): Promise<ChartRow[]> {
    return this.dataSource.query(
      `SELECT m.id::text AS issue_module__module_id, m.name AS issue_module__module__name
       FROM modules m WHERE m.id = ANY($1::uuid[]) AND m.deleted_at IS NULL ORDER BY 1`,
      [ids],
    );
  }

  /**
   * Per project of the workspace that `viewerId` may see (an active member, or a public project),
   * `id` and the asked counts (Plane's `ProjectStatsEndpoint`), optionally only `projectIds`.
   */
  projectStats(
    workspaceId: string,
    viewerId: string,
    fields: ReadonlySet<string>,
    projectIds: string[] | undefined,
  ): Promise<Array<Record<string, unknown>>> {
    const params: unknown[] = [workspaceId, viewerId];
    const live = `x.deleted_at IS NULL`;
    const cols: string[] = [];
    if (fields.has('total_issues'))
      cols.push(
        `(SELECT COUNT(*)::int FROM issues i WHERE i.project_id = p.id AND i.deleted_at IS NULL AND ${VISIBLE_ISSUE}) AS total_issues`,
      );
    if (fields.has('completed_issues'))
      cols.push(
        `(SELECT COUNT(*)::int FROM issues i JOIN states s ON s.id = i.state_id AND s."group" = 'completed'
          WHERE i.project_id = p.id AND i.deleted_at IS NULL AND ${VISIBLE_ISSUE}) AS completed_issues`,
      );
    if (fields.has('total_cycles'))
      cols.push(`(SELECT COUNT(*)::int FROM cycles x WHERE x.project_id = p.id AND ${live}) AS total_cycles`);
    if (fields.has('total_modules'))
      cols.push(`(SELECT COUNT(*)::int FROM modules x WHERE x.project_id = p.id AND ${live}) AS total_modules`);
    if (fields.has('total_members'))
      cols.push(
        `(SELECT COUNT(*)::int FROM project_members x JOIN users u ON u.id = x.member_id AND u.is_bot = false
          WHERE x.project_id = p.id AND x.is_active = true AND ${live}) AS total_members`,
      );
    let only = '';
    if (projectIds) {
      params.push(projectIds);
      only = `AND p.id = ANY($${params.length}::uuid[])`;
    }
    return this.dataSource.query(
      `SELECT p.id::text AS id${cols.map((c) => `, ${c}`).join('')} FROM projects p
       WHERE p.workspace_id = $1 AND p.deleted_at IS NULL ${only}
         AND (p.network = ${PUBLIC_NETWORK} OR EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id
           AND pm.member_id = $2 AND pm.is_active = true AND pm.deleted_at IS NULL))
       ORDER BY p.created_at DESC`,
      params,
    );
  }

  // ---- the home graphs (the caller's own work) ------------------------------------------------

  /**
   * `{created_date, activity_count}` of `actorId`'s history entries in the workspace since `since`
   * (UTC days, `YYYY-MM-DD`), oldest first: the tallies per actor and day
   * (`issue_activity_day_tallies`, migration `ActivityDayTallies`, kept by triggers: the count of the
   * live history rows of each day), days of none left out as a count leaves them out.
   */
  activityByDay(workspaceId: string, actorId: string, since: string): Promise<ChartRow[]> {
    return this.dataSource.query(
      `SELECT to_char(t.day, 'YYYY-MM-DD') AS created_date, t.n AS activity_count
       FROM issue_activity_day_tallies t
       WHERE t.workspace_id = $1 AND t.actor_id = $2 AND t.day >= $3::date AND t.n > 0
       ORDER BY t.day`,
      [workspaceId, actorId, since],
    );
  }

  /**
   * The scope's work items completed in calendar month `month` (of any year, as Plane), grouped
   * by the ISO week modulo 4 (`week`, the completed graph), each with `completed_count`.
   */
  completedInMonth(scope: AnalyticsScope, month: number): Promise<ChartRow[]> {
    const params: unknown[] = [];
    const from = this.scoped(scope, params);
    params.push(month);
    const t = `(i.completed_at AT TIME ZONE 'UTC')`;
    return this.dataSource.query(
      `SELECT (EXTRACT(WEEK FROM ${t})::int % 4) AS week, COUNT(*)::int AS completed_count ${from}
       AND i.completed_at IS NOT NULL AND EXTRACT(MONTH FROM ${t}) = $${params.length} GROUP BY 1 ORDER BY 1`,
      params,
    );
  }

  /**
   * The dashboard's figures of the scope (its work items are the caller's assigned ones) in one
   * statement, the scope's work items read once: `counts` (all, pending: state group unset or not
   * completed or cancelled, completed, due this week: `target_date` in the current week, UTC),
   * `states` (`{state_group, state_count}` per state group, by group; a work item whose state is
   * unset or gone counts 0 under `null`, as `COUNT(s."group")`), `completed`
   * (`{week_in_month, completed_count}`: the work items completed in calendar month `month` of any
   * year, per `(day - 1) / 7 + 1`, by week), and the open work items (state group not completed or
   * cancelled, `completed_at` unset) that are `overdue` (`target_date` before today, UTC) or
   * `upcoming` (`start_date` today or later): `{id, name, workspace__slug, project_id, target_date
   * | start_date}`, soonest first (then oldest), at most 100 each.
   */
  async dashboardFigures(
    scope: AnalyticsScope,
    month: number,
  ): Promise<{
    counts: { assigned: number; pending: number; completed: number; dueThisWeek: number };
    states: ChartRow[];
    completed: ChartRow[];
    overdue: ChartRow[];
    upcoming: ChartRow[];
  }> {
    const params: unknown[] = [];
    const from = this.scoped(scope, params, 'LEFT JOIN states s ON s.id = i.state_id');
    params.push(month);
    const t = `(m.completed_at AT TIME ZONE 'UTC')`;
    const today = `(now() AT TIME ZONE 'UTC')::date`;
    const open = `(m.state_group IS NULL OR m.state_group NOT IN ('completed', 'cancelled')) AND m.completed_at IS NULL`;
    const due = (column: string, cond: string) =>
      `(SELECT json_agg(d ORDER BY d.o) FROM (
         SELECT m.id::text AS id, m.name, w.slug AS workspace__slug, m.project_id::text AS project_id,
           m.${column}::text AS ${column}, row_number() OVER (ORDER BY m.${column}, m.created_at) AS o
         FROM m JOIN workspaces w ON w.id = m.workspace_id WHERE ${open} AND ${cond}
         ORDER BY m.${column}, m.created_at LIMIT 100) d)`;
    const rows: Array<{ groups: unknown; overdue: unknown; upcoming: unknown }> = await this.dataSource.query(
      `WITH m AS MATERIALIZED (
         SELECT i.id, i.name, i.workspace_id, i.project_id, s."group"::text AS state_group, i.completed_at,
           i.target_date, i.start_date, i.created_at ${from})
       SELECT
         (SELECT json_agg(g ORDER BY g.state_group) FROM (
            SELECT m.state_group,
              CASE WHEN m.completed_at IS NOT NULL AND EXTRACT(MONTH FROM ${t}) = $${params.length}
                THEN ((EXTRACT(DAY FROM ${t})::int - 1) / 7) + 1 END AS week,
              COALESCE(date_trunc('week', m.target_date) = date_trunc('week', ${today}), false) AS due,
              COUNT(*)::int AS n
            FROM m GROUP BY 1, 2, 3) g) AS groups,
         ${due('target_date', `m.target_date < ${today}`)} AS overdue,
         ${due('start_date', `m.start_date >= ${today}`)} AS upcoming`,
      params,
    );
    const json = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v as T[] | null) ?? []));
    const counts = { assigned: 0, pending: 0, completed: 0, dueThisWeek: 0 };
    const states = new Map<string | null, number>();
    const weeks = new Map<number, number>();
    for (const r of json<{ state_group: string | null; week: number | null; due: boolean; n: number }>(
      rows[0]?.groups,
    )) {
      const n = Number(r.n);
      counts.assigned += n;
      if (r.state_group === null || (r.state_group !== 'completed' && r.state_group !== 'cancelled'))
        counts.pending += n;
      if (r.state_group === 'completed') counts.completed += n;
      if (r.due) counts.dueThisWeek += n;
      states.set(r.state_group, (states.get(r.state_group) ?? 0) + (r.state_group === null ? 0 : n));
      if (r.week !== null) weeks.set(Number(r.week), (weeks.get(Number(r.week)) ?? 0) + n);
    }
    const list = (v: unknown) => json<ChartRow>(v).map(({ o: _o, ...r }) => r);
    return {
      counts,
      states: [...states].map(([state_group, state_count]) => ({ state_group, state_count })),
      completed: [...weeks]
        .sort(([a], [b]) => a - b)
        .map(([week_in_month, completed_count]) => ({ week_in_month, completed_count })),
      overdue: list(rows[0]?.overdue),
      upcoming: list(rows[0]?.upcoming),
    };
  }

  // ---- saved charts ---------------------------------------------------------------------------

  listViews(workspaceId: string): Promise<AnalyticView[]> {
    return this.dataSource.getRepository(AnalyticView).find({ where: { workspaceId }, order: { createdAt: 'DESC' } });
  }

  findView(workspaceId: string, id: string): Promise<AnalyticView | null> {
    return this.dataSource.getRepository(AnalyticView).findOne({ where: { workspaceId, id } });
  }

  saveView(view: AnalyticView): Promise<AnalyticView> {
    return this.dataSource.getRepository(AnalyticView).save(view);
  }

  newView(values: Partial<AnalyticView>): AnalyticView {
    return this.dataSource.getRepository(AnalyticView).create(values);
  }

  async softDeleteView(id: string): Promise<void> {
    await this.dataSource.getRepository(AnalyticView).softDelete({ id });
  }
}
