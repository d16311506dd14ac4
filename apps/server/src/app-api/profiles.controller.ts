import {
  APP_PAGED_BY_NUMBER,
  APP_PAGING,
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  idListParam,
  MeridianError,
  PageQuery,
  PageRequest,
  Principal,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { IssueFilterSet, IssueQueryService, WorkspaceProfileService } from '#domain';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { single } from '../shared/context';
import { ExportUserActivityDto } from './dto/profile.dto';
import { listQuery } from './work-items.controller';

/** Plane's `issue_filters` of the query string, as the work item lists parse them (400 for a bad value). */
function filtersOf(me: Principal, query: Record<string, unknown>): IssueFilterSet {
  const { page: _p, shape: _s, view: _v, viewer: _w, order_by: _o, ...filters } = listQuery(query, { perPage: 1 }, me);
  return filters;
}

/** `order_by` of the history lists: `-created_at` (the default, newest first) or `created_at`. */
function ascending(query: Record<string, unknown>): boolean {
  const raw = single(query, 'order_by');
  if (raw === undefined || raw === '' || raw === '-created_at') return false;
  if (raw === 'created_at') return true;
  throw new MeridianError('INVALID_QUERY_PARAMETER', 'order_by must be created_at or -created_at.');
}

/**
 * A workspace member's profile (Plane 0.25.3 `plane/app/views/workspace/user.py`:
 * WorkspaceUserProfileEndpoint, WorkspaceUserProfileStatsEndpoint, WorkspaceUserProfileIssuesEndpoint,
 * WorkspaceUserActivityEndpoint; `plane/app/views/workspace/base.py` ExportWorkspaceUserActivityEndpoint).
 * Any active workspace member may read a profile; it shows only the work of the projects the caller
 * is an active member of (each project's Guest rule applied). A user id that is not a UUID is a 404.
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppProfilesController {
  constructor(
    private readonly profiles: WorkspaceProfileService,
    private readonly issues: IssueQueryService,
  ) {}

  /** 200 `{project_data, user_data}` (`project_data` is `[]` for a workspace Guest); 404 an unknown user. */
  @Get('user-profile/:user_id')
  profile(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('user_id', UuidPipe) userId: string,
  ) {
    return this.profiles.profile(ws.workspaceId, { userId: me.userId, role: ws.role }, userId);
  }

  /**
   * 200 `{state_distribution, priority_distribution, created_issues, assigned_issues,
   * completed_issues, pending_issues, subscribed_issues, present_cycles, upcoming_cycles}`; the work
   * item list filters narrow the counts (400 for a bad one).
   */
  @Get('user-stats/:user_id')
  stats(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('user_id', UuidPipe) userId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.profiles.stats(ws.workspaceId, me.userId, userId, filtersOf(me, query));
  }

  /**
   * The profile's work item lists (the web app's assigned, created and subscribed tabs): the
   * workspace work item list (`GET workspaces/{slug}/issues/`: filters, order, `group_by` and
   * `sub_group_by`, paged by
   * number) of the caller's projects. The tab's filter is `assignees`, `created_by` or `subscriber`
   * with the user's id; without any of them, the work items assigned to the user.
   */
  @Get('user-issues/:user_id')
  userIssues(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('user_id', UuidPipe) userId: string,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const q = listQuery(query, page, me);
    if (!q.assignee?.length && !q.created_by?.length && !q.subscriber?.length) q.assignee = [userId];
    return this.issues.listWorkspace(
      ws.workspaceId,
      me.userId,
      q,
      single(query, 'group_by'),
      single(query, 'sub_group_by'),
    );
  }

  /**
   * A page (Plane's envelope) of the user's history rows in the caller's live projects, newest
   * first (`order_by=created_at`: oldest first), without comment, vote, reaction and draft entries;
   * `project` (ids, comma-separated) narrows it. Each row is Plane's `IssueActivitySerializer`.
   */
  @Get('user-activity/:user_id')
  activity(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('user_id', UuidPipe) userId: string,
    @PageQuery(APP_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const projectIds = idListParam(query, 'project');
    return this.profiles.workspaceActivity(ws.workspaceId, me.userId, userId, page, {
      asc: ascending(query),
      projectIds,
    });
  }

  /**
   * 200 `text/csv` (`workspace-user-activity.csv`): the user's history rows of `date` (UTC) in the
   * caller's projects, at most 10000, newest first; 422 without a valid `date`. Admins and Members.
   */
  @Post('user-activity/:user_id/export')
  @WorkspaceRole(ROLE.MEMBER)
  @HttpCode(200)
  async exportActivity(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('user_id', UuidPipe) userId: string,
    @Body() body: ExportUserActivityDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const csv = await this.profiles.exportActivity(ws.workspaceId, me.userId, userId, body.date.slice(0, 10));
    // set on success only, so an error stays JSON
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="workspace-user-activity.csv"');
    return csv;
  }
}

/** The caller's own history (Plane 0.25.3 `plane/app/views/user/base.py` UserActivityEndpoint). */
@Controller('users/me')
@BearerAuth()
export class AppMyActivityController {
  constructor(private readonly profiles: WorkspaceProfileService) {}

  /** A page (Plane's envelope) of the caller's history rows in every workspace, newest first (`order_by=created_at`: oldest first). */
  @Get('activities')
  activities(
    @CurrentPrincipal() me: Principal,
    @PageQuery(APP_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.profiles.myActivity(me.userId, page, ascending(query));
  }
}
