import {
  APP_PAGED_BY_NUMBER,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { CYCLE_VIEWS, CycleService, CycleView, parseShape } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post, Query } from '@nestjs/common';
import {
  CreateCycleDto,
  CycleDateCheckDto,
  WorkItemIdsDto,
  TransferDto,
  UpdateCycleDto,
} from '../shared/dto/planning.dto';
import { issueContext, single } from '../shared/context';

/**
 * Cycles of a project on the App API (Plane 0.25.3 `app/urls/cycle.py`), through the same
 * `CycleService` as v1. Each cycle carries Plane's progress annotations: `total_issues`,
 * `completed_issues`, `cancelled_issues`, `started_issues`, `unstarted_issues`, `backlog_issues` and
 * the matching `*_estimate_points`, and Plane's App keys (`status`, `assignee_ids`, `owned_by_id`,
 * `workspace_id`, `is_favorite`; retrieve adds `sub_issues`). Listing cycles and their progress needs a project membership; a
 * cycle's detail, its work items and the archived cycles need project role ≥ 15 (Plane's
 * `CycleViewSet.retrieve`, `CycleIssueViewSet`, `CycleArchiveUnarchiveEndpoint`), as do writes;
 * delete: the creator or a project Admin.
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
export class AppCyclesController {
  constructor(private readonly cycles: CycleService) {}

  /**
   * The caller's favourites first, then newest first, a bare array (Plane's `CycleViewSet.list`);
   * `cycle_view` = all|current|upcoming|completed|draft|incomplete.
   */
  @Get('cycles')
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const view = (single(query, 'cycle_view') || 'all').toLowerCase();
    if (!(CYCLE_VIEWS as readonly string[]).includes(view)) {
      throw new MeridianError('INVALID_QUERY_PARAMETER', `cycle_view must be one of: ${CYCLE_VIEWS.join(', ')}.`);
    }
    const found = await this.cycles.list(project.projectId, page, view as CycleView);
    // every cycle (`APP_UNPAGED`): the page holds them all
    return this.cycles.withProgress(Array.isArray(found) ? found : found.results, me.userId, { favoritesFirst: true });
  }

  /** 201; 422 (dates, owner, time zone). */
  @Post('cycles')
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateCycleDto,
  ) {
    return (
      await this.cycles.withProgress([await this.cycles.create(issueContext(me, ws, project), body)], me.userId)
    )[0];
  }

  /**
   * `{start_date, end_date, cycle_id?}` → 200 `{status: true}`, or `{error, status: false}` when
   * another cycle of the project meets those days (Plane's `CycleDateCheckEndpoint`; ADMIN, MEMBER).
   * 422 without both dates or with a start after the end.
   */
  @Post('cycles/date-check')
  @ProjectRole(ROLE.MEMBER)
  @HttpCode(200)
  dateCheck(@CurrentProject() project: ProjectAccess, @Body() body: CycleDateCheckDto) {
    return this.cycles.dateCheck(
      project.projectId,
      body.start_date ?? null,
      body.end_date ?? null,
      body.cycle_id ?? null,
    );
  }

  /**
   * Every archived cycle, the caller's favourites first, then newest first, a bare array (Plane's
   * `CycleArchiveUnarchiveEndpoint.get`).
   */
  @Get('archived-cycles')
  @ProjectRole(ROLE.MEMBER)
  async listArchived(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    const found = await this.cycles.listArchived(project.projectId, page);
    return this.cycles.withProgress(found.results, me.userId, { favoritesFirst: true });
  }

  /**
   * An archived cycle's detail, as `cycles/{cycle_id}/` gives a live one (Plane 0.25.3
   * `app/views/cycle/archive.py` `CycleArchiveUnarchiveEndpoint.get` with a `pk`; Admins and
   * Members). 404 for a cycle that is not archived or not this project's.
   */
  @Get('archived-cycles/:cycle_id')
  @ProjectRole(ROLE.MEMBER)
  async retrieveArchived(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    return (
      await this.cycles.withProgress([await this.cycles.retrieveArchived(project.projectId, id)], me.userId, {
        detail: true,
      })
    )[0];
  }

  @Get('cycles/:cycle_id')
  @ProjectRole(ROLE.MEMBER)
  async retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    return (
      await this.cycles.withProgress([await this.cycles.retrieve(project.projectId, id)], me.userId, { detail: true })
    )[0];
  }

  /** 200; 400 `CYCLE_ARCHIVED`, `CYCLE_COMPLETED`; 422. */
  @Patch('cycles/:cycle_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: UpdateCycleDto,
  ) {
    const updated = await this.cycles.update(issueContext(me, ws, project), id, body);
    return (await this.cycles.withProgress([updated], me.userId))[0];
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put('cycles/:cycle_id')
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: UpdateCycleDto,
  ) {
    return this.update(me, ws, project, id, body);
  }

  /** 204; the creator or a project Admin (403). */
  @Delete('cycles/:cycle_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.remove(issueContext(me, ws, project), id);
  }

  /** Work item counts and estimate point sums by state group (Plane's `progress/`). */
  @Get('cycles/:cycle_id/progress')
  progress(@CurrentProject() project: ProjectAccess, @Param('cycle_id', UuidPipe) id: string) {
    return this.cycles.progress(project.projectId, id);
  }

  /**
   * The same as `progress/`, under the path Plane's web app calls for its commercial edition
   * (`workspaceActiveCyclesProgressPro`).
   */
  @Get('cycles/:cycle_id/cycle-progress')
  cycleProgress(@CurrentProject() project: ProjectAccess, @Param('cycle_id', UuidPipe) id: string) {
    return this.cycles.progress(project.projectId, id);
  }

  /**
   * `?type=issues` (default) or `points` → `{assignees, labels, completion_chart}` (Plane's
   * `CycleAnalyticsEndpoint`): per assignee (`display_name`, `assignee_id`, `avatar_url`) and per
   * label (`label_name`, `color`, `label_id`) the total, completed and pending work items
   * (`*_issues`) or estimate points (`*_estimates`, only with a `points` estimate; else empty), and
   * the burndown by day (null after today). A draft cycle: its rows, an empty chart.
   */
  @Get('cycles/:cycle_id/analytics')
  analytics(
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.cycles.analytics(project.projectId, id, single(query, 'type') ?? 'issues');
  }

  /** The cycle's work items, oldest first, in the cursor envelope. */
  @Get('cycles/:cycle_id/cycle-issues')
  @ProjectRole(ROLE.MEMBER)
  listIssues(
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.cycles.listIssues(project.projectId, id, page, parseShape(query));
  }

  /** `{issues: [ids]}` → 200 with the cycle's link rows; a work item in another cycle moves here. */
  @Post('cycles/:cycle_id/cycle-issues')
  @HttpCode(200)
  addIssues(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: WorkItemIdsDto,
  ) {
    return this.cycles.addIssues(issueContext(me, ws, project), id, body.issues);
  }

  /** The link row of a work item in this cycle; 404 otherwise. */
  @Get('cycles/:cycle_id/cycle-issues/:issue_id')
  @ProjectRole(ROLE.MEMBER)
  retrieveIssue(
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.cycles.retrieveIssueLink(project.projectId, id, issueId);
  }

  @Delete('cycles/:cycle_id/cycle-issues/:issue_id')
  @HttpCode(204)
  async removeIssue(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.cycles.removeIssue(issueContext(me, ws, project), id, issueId);
  }

  /** `{new_cycle_id}` → 200; 400 `CYCLE_NOT_COMPLETED` / `CYCLE_TRANSFER_TARGET_COMPLETED`. */
  @Post('cycles/:cycle_id/transfer-issues')
  @HttpCode(200)
  transfer(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
    @Body() body: TransferDto,
  ) {
    return this.cycles.transfer(issueContext(me, ws, project), id, body.new_cycle_id?.toLowerCase());
  }

  /** 204; only an ended cycle (400 `CYCLE_NOT_COMPLETED`). */
  @Post('cycles/:cycle_id/archive')
  @HttpCode(204)
  async archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.archive(issueContext(me, ws, project), id);
  }

  @Delete('cycles/:cycle_id/archive')
  @HttpCode(204)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) id: string,
  ) {
    await this.cycles.unarchive(issueContext(me, ws, project), id);
  }
}
