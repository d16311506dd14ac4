import {
  AuditActor,
  CurrentActor,
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  MeridianError,
  PageRequest,
  parsePageRequest,
  APP_PAGED_BY_NUMBER,
  Principal,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { AnalyticsScope, AnalyticsService, ExporterService, IssueFilterSet } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { single } from '../shared/context';
import { CreateAnalyticViewDto, ExportAnalyticsDto, ExportIssuesDto, UpdateAnalyticViewDto } from './dto/analytics.dto';
import { listQuery } from './work-items.controller';

/** Plane's list filters of a query string (or a body whose lists are joined with commas). */
function filtersOf(query: Record<string, unknown>, me: Principal): IssueFilterSet {
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === null || v === undefined) continue;
    flat[k] = Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : v;
  }
  const q = listQuery(flat, { perPage: 1, all: true }, me);
  return {
    state: q.state,
    state_group: q.state_group,
    priority: q.priority,
    assignee: q.assignee,
    label: q.label,
    created_by: q.created_by,
    cycle: q.cycle,
    module: q.module,
    project: q.project,
    subscriber: q.subscriber,
    mentions: q.mentions,
    state_type: q.state_type,
    start_date: q.start_date,
    target_date: q.target_date,
    created_at: q.created_at,
    updated_at: q.updated_at,
    completed_at: q.completed_at,
    name: q.name,
    parent: q.parent,
    estimate_point: q.estimate_point,
    both_dates: q.both_dates,
  };
}

function scopeOf(ws: WorkspaceAccess, me: Principal, query: Record<string, unknown>): AnalyticsScope {
  return { workspaceId: ws.workspaceId, viewerId: me.userId, filters: filtersOf(query, me) };
}

/**
 * Workspace analytics on the App API (Plane 0.25.3 `app/urls/analytic.py`,
 * `app/views/analytic/base.py`): the chart (`analytics/`), the overview (`default-analytics/`),
 * per-project counts (`project-stats/`), saved charts (`analytic-view/`, `saved-analytic-view/`)
 * and the chart's CSV by mail (`export-analytics/`). Charts, saved charts and the export need
 * workspace Admin or Member; the overview and project stats any member (Plane's
 * `allow_permission`, `WorkSpaceAdminPermission`). Counts cover the projects the caller is an
 * active member of (docs/decisions.md, "Analytics").
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppAnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  /**
   * `{total, distribution, extras}` (Plane's `build_graph_plot`): `x_axis` (state_id, state__group,
   * labels__id, assignees__id, estimate_point__value, issue_cycle__cycle_id, issue_module__module_id,
   * priority, start_date, target_date, created_at, completed_at), `y_axis` (issue_count, estimate),
   * optional `segment` (an axis other than `x_axis`) and Plane's list filters (`project`, `state`,
   * `priority`, `labels`, `assignees`, `cycle`, `module`, dates…). 400 `ANALYTICS_AXIS_INVALID`,
   * `ANALYTICS_SEGMENT_INVALID`, `INVALID_QUERY_PARAMETER`.
   */
  @Get('analytics')
  @WorkspaceRole(ROLE.MEMBER)
  chart(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    const chart = this.analytics.checkChart({
      x_axis: single(query, 'x_axis'),
      y_axis: single(query, 'y_axis'),
      segment: single(query, 'segment'),
    });
    return this.analytics.chart(scopeOf(ws, me, query), chart);
  }

  /**
   * Plane's `DefaultAnalyticsEndpoint`: `total_issues`, `total_issues_classified`, `open_issues`,
   * `open_issues_classified`, `issue_completed_month_wise`, `most_issue_created_user`,
   * `most_issue_closed_user`, `pending_issue_user`, `open_estimate_sum`, `total_estimate_sum`;
   * the same filters. Any workspace member.
   */
  @Get('default-analytics')
  defaults(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return this.analytics.defaults(scopeOf(ws, me, query));
  }

  /** `[{id, total_issues?, completed_issues?, total_members?, total_cycles?, total_modules?}]`; `fields`, `project_ids` (comma-separated). Any member. */
  @Get('project-stats')
  projectStats(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return this.analytics.projectStats(
      ws.workspaceId,
      me.userId,
      single(query, 'fields'),
      single(query, 'project_ids'),
    );
  }

  /** The workspace's saved charts (Plane's `AnalyticViewSerializer`), newest first, a bare array. Admin or Member. */
  @Get('analytic-view')
  @WorkspaceRole(ROLE.MEMBER)
  listViews(@CurrentWorkspace() ws: WorkspaceAccess) {
    return this.analytics.listViews(ws.workspaceId);
  }

  /** 201 with the saved chart; `query` is derived from `query_dict`; 422 without `name` or with a bad filter. Admin or Member. */
  @Post('analytic-view')
  @WorkspaceRole(ROLE.MEMBER)
  createView(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateAnalyticViewDto,
  ) {
    return this.analytics.createView(ws.workspaceId, me.userId, body);
  }

  /** One saved chart; 404 for another workspace's. Admin or Member. */
  @Get('analytic-view/:id')
  @WorkspaceRole(ROLE.MEMBER)
  getView(@CurrentWorkspace() ws: WorkspaceAccess, @Param('id', UuidPipe) id: string) {
    return this.analytics.getView(ws.workspaceId, id);
  }

  /** Partial update (`name`, `description`, `query_dict`); 404; 422. Admin or Member. */
  @Patch('analytic-view/:id')
  @WorkspaceRole(ROLE.MEMBER)
  updateView(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('id', UuidPipe) id: string,
    @Body() body: UpdateAnalyticViewDto,
  ) {
    return this.analytics.updateView(ws.workspaceId, id, me.userId, body);
  }

  /** 204; 404. Admin or Member. */
  @Delete('analytic-view/:id')
  @WorkspaceRole(ROLE.MEMBER)
  @HttpCode(204)
  async deleteView(@CurrentWorkspace() ws: WorkspaceAccess, @Param('id', UuidPipe) id: string) {
    await this.analytics.deleteView(ws.workspaceId, id);
  }

  /** `{total, distribution}` of a saved chart (its `query_dict` axes and filters), `segment` from the query; 404; 400. Admin or Member. */
  @Get('saved-analytic-view/:analytic_id')
  @WorkspaceRole(ROLE.MEMBER)
  savedChart(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('analytic_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.analytics.savedChart(
      { workspaceId: ws.workspaceId, viewerId: me.userId },
      id,
      single(query, 'segment'),
    );
  }

  /**
   * 200 `{message}` (Plane's): the chart's CSV is mailed to the caller in the background. 400 as
   * `analytics/` (Plane's export spells the estimate axis `estimate_point`); 400
   * `SMTP_NOT_CONFIGURED` when no mail can be delivered. Admin or Member.
   */
  @Post('export-analytics')
  @WorkspaceRole(ROLE.MEMBER)
  @HttpCode(200)
  exportChart(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: ExportAnalyticsDto,
  ) {
    const chart = this.analytics.checkChart(body, 'estimate_point');
    const { x_axis: _x, y_axis: _y, segment: _s, ...filters } = body as Record<string, unknown>;
    return this.analytics.exportChart(scopeOf(ws, me, filters), chart, me.email);
  }
}

/**
 * Work item exports on the App API (Plane 0.25.3 `app/urls/exporter.py`, `ExportIssuesEndpoint`):
 * workspace Admin or Member. The file is written in the background; its `url` is Meridian's
 * members-only download route (Plane hands out a presigned S3 link: docs/decisions.md, "Exports").
 */
@Controller('workspaces/:slug/export-issues')
@BearerAuth()
@WorkspaceRole(ROLE.MEMBER)
export class AppExportsController {
  constructor(private readonly exporter: ExporterService) {}

  /**
   * The workspace's exports, newest first, in Plane's page envelope; `per_page` and `cursor` are
   * required (400 `INVALID_QUERY_PARAMETER` "per_page and cursor are required", as Plane). The web
   * app pages by number (`10:0:0`).
   */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    if (!single(query, 'per_page') || !single(query, 'cursor'))
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'per_page and cursor are required');
    const page: PageRequest = parsePageRequest(query, APP_PAGED_BY_NUMBER);
    return this.exporter.list(ws.workspaceId, me.userId, ws.slug, page);
  }

  /**
   * 200 `{message}` (Plane's): queues an export of `project` (ids; none: every project the caller
   * is an active member of) as `provider` (csv, json, xlsx), `multiple` files or one. 400
   * `EXPORT_PROVIDER_NOT_FOUND`; 422 for project ids that are not a list of UUIDs.
   */
  @Post()
  @HttpCode(200)
  request(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: ExportIssuesDto,
  ) {
    return this.exporter.request(ws.workspaceId, me.userId, body, actor);
  }

  /**
   * The zip of a completed export the caller may read (a redirect to a short-lived S3 link, or the
   * file); 404 otherwise, also for an export of a project the caller may not read in full.
   */
  @Get(':id/download')
  async download(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('id', UuidPipe) id: string,
    @Res() res: Response,
  ) {
    const file = await this.exporter.download(ws.workspaceId, me.userId, id, actor);
    if (file.redirect) return res.redirect(302, file.redirect);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.status(200).end(file.data);
  }
}

/** `month=` 1..12 (default 1, as Plane); 400 `INVALID_QUERY_PARAMETER` otherwise. */
function monthOf(query: Record<string, unknown>): number {
  const raw = single(query, 'month');
  if (raw === undefined || raw === '') return 1;
  if (!/^\d{1,2}$/.test(raw) || Number(raw) < 1 || Number(raw) > 12)
    throw new MeridianError('INVALID_QUERY_PARAMETER', 'month must be an integer from 1 to 12.');
  return Number(raw);
}

/**
 * The caller's own graphs on the home page (Plane 0.25.3 `app/urls/user.py`:
 * `UserActivityGraphEndpoint`, `UserIssueCompletedGraphEndpoint`, `UserWorkspaceDashboardEndpoint`).
 * Plane only asks for a signed-in user; Meridian asks for a workspace membership (any role).
 */
@Controller('users/me/workspaces/:slug')
@BearerAuth()
export class AppUserDashboardController {
  constructor(private readonly analytics: AnalyticsService) {}

  /** `[{created_date, activity_count}]`: the caller's work item history entries per UTC day, the last six months. */
  @Get('activity-graph')
  activityGraph(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.analytics.activityGraph(ws.workspaceId, me.userId, 6);
  }

  /** `[{week, completed_count}]`: the caller's assigned work items completed in `month` (1..12, default 1), by ISO week modulo 4. */
  @Get('issues-completed-graph')
  completedGraph(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return this.analytics.completedGraph(ws.workspaceId, me.userId, monthOf(query));
  }

  /**
   * `{issue_activities, completed_issues, assigned_issues_count, pending_issues_count,
   * completed_issues_count, issues_due_week_count, state_distribution, overdue_issues,
   * upcoming_issues}` of the caller's assigned work items; `month` as `issues-completed-graph/`.
   */
  @Get('dashboard')
  dashboard(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return this.analytics.dashboard(ws.workspaceId, me.userId, monthOf(query));
  }
}
