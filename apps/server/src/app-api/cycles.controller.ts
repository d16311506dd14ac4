import {
  APP_PAGED_BY_NUMBER,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  MeridianError,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { CycleService, IssueQueryService } from '#domain';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CreateCycleDto, CycleDateCheckDto, TransferDto, UpdateCycleDto } from '../shared/dto/planning.dto';
import { issueContext, single } from '../shared/context';
import { AppPlanningRoutes, cycleViewOf, RowOf } from '../shared/planning-routes';
import { listQuery, projectWorkItems } from './work-items.controller';

/**
 * Cycles of a project on the App API (Plane 0.25.3 `app/urls/cycle.py`), through the same
 * `CycleService` as v1. Each cycle carries Plane's progress annotations: `total_issues`,
 * `completed_issues`, `cancelled_issues`, `started_issues`, `unstarted_issues`, `backlog_issues` and
 * the matching `*_estimate_points`, and Plane's App keys (`status`, `assignee_ids`, `owned_by_id`,
 * `workspace_id`, `is_favorite`; retrieve adds `sub_issues`). Listing cycles and their progress needs a project membership; a
 * cycle's detail, its work items and the archived cycles need project role ≥ 15 (Plane's
 * `CycleViewSet.retrieve`, `CycleIssueViewSet`, `CycleArchiveUnarchiveEndpoint`), as do writes;
 * delete: the creator or a project Admin. The routes cycles share with modules (create, detail,
 * update and its `PUT`, delete, `cycle-issues/`, archive/unarchive, `archived-cycles/{cycle_id}/`)
 * are `AppPlanningRoutes`' (apps/server/src/shared/planning-routes.ts), with the spec below.
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
export class AppCyclesController extends AppPlanningRoutes<RowOf<CycleService>, CreateCycleDto, UpdateCycleDto>({
  rows: 'cycles',
  id: 'cycle_id',
  workItems: 'cycle-issues',
  createDto: CreateCycleDto,
  updateDto: UpdateCycleDto,
  workItemsPaging: APP_PAGED_BY_NUMBER,
  orderBy: false,
  readRole: ROLE.MEMBER,
  archivedReadRole: ROLE.MEMBER,
}) {
  constructor(
    protected readonly service: CycleService,
    private readonly issues: IssueQueryService,
  ) {
    super();
  }

  /**
   * `GET cycles/{id}/cycle-issues/` as Plane's `CycleIssueViewSet.list`: the project's work item list
   * (`projectWorkItems`: Plane's filters, `order_by`, newest first by default, `group_by`, App
   * values, paged by number) of the cycle's work items (a `cycle=` filter is the cycle's). The web
   * app's active cycle asks it for the urgent and high priority ones. 404 for an unknown cycle.
   */
  protected override async workItems(
    me: Principal,
    project: ProjectAccess,
    id: string,
    page: PageRequest,
    query: Record<string, unknown>,
  ): Promise<unknown> {
    if (!(await this.service.existsInProject(project.projectId, id))) throw new MeridianError('NOT_FOUND');
    const q = { ...listQuery(query, page, me, project), cycle: [id] };
    return projectWorkItems(this.issues, project.projectId, query, q);
  }

  /** A cycle's answer: Plane's progress annotations and App keys (`CycleService.withProgress`). */
  protected present(rows: RowOf<CycleService>[], userId: string, opts?: { detail?: boolean }) {
    return this.service.withProgress(rows, userId, opts);
  }

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
    const found = await this.service.list(project.projectId, page, cycleViewOf(query));
    // every cycle (`APP_UNPAGED`): the page holds them all
    return this.service.withProgress(Array.isArray(found) ? found : found.results, me.userId, { favoritesFirst: true });
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
    return this.service.dateCheck(
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
    const found = await this.service.listArchived(project.projectId, page);
    return this.service.withProgress(found.results, me.userId, { favoritesFirst: true });
  }

  /** Work item counts and estimate point sums by state group (Plane's `progress/`). */
  @Get('cycles/:cycle_id/progress')
  progress(@CurrentProject() project: ProjectAccess, @Param('cycle_id', UuidPipe) id: string) {
    return this.service.progress(project.projectId, id);
  }

  /**
   * The same as `progress/`, under the path Plane's web app calls for its commercial edition
   * (`workspaceActiveCyclesProgressPro`).
   */
  @Get('cycles/:cycle_id/cycle-progress')
  cycleProgress(@CurrentProject() project: ProjectAccess, @Param('cycle_id', UuidPipe) id: string) {
    return this.service.progress(project.projectId, id);
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
    return this.service.analytics(project.projectId, id, single(query, 'type') ?? 'issues');
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
    return this.service.transfer(issueContext(me, ws, project), id, body.new_cycle_id?.toLowerCase());
  }
}
