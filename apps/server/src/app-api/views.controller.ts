import {
  APP_PAGED_BY_NUMBER,
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
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { AppViewJson, FavoriteService, parseShape, pick, ViewScope, ViewService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post, Query } from '@nestjs/common';
import { single } from '../shared/context';
import { CreateViewDto, FavoriteViewDto, UpdateViewDto } from './dto/view.dto';
import { listQuery } from './work-items.controller';

const projectScope = (me: Principal, ws: WorkspaceAccess, project: ProjectAccess) => ({
  workspaceId: ws.workspaceId,
  projectId: project.projectId,
  userId: me.userId,
  role: project.role,
});

const workspaceScope = (me: Principal, ws: WorkspaceAccess): ViewScope => ({
  workspaceId: ws.workspaceId,
  projectId: null,
  userId: me.userId,
  role: ws.role,
});

/** `fields=a,b` (Plane's `DynamicBaseSerializer`): only those keys of each view. */
function withFields(query: Record<string, unknown>, views: AppViewJson[]) {
  const { fields } = parseShape(query);
  return fields ? views.map((v) => pick(v, fields)) : views;
}

/**
 * A project's saved views (Plane 0.25.3 `app/urls/views.py`, `IssueViewViewSet` and
 * `IssueViewFavoriteViewSet`), each as Plane's `IssueViewSerializer` with `is_favorite`. Any project
 * member reads and creates views (Plane sets no role on create; its Guests own views); a caller
 * sees the public views and their own private ones, a Guest only their own unless the project has
 * `guest_view_all_features`. Only the owner changes a view (403), not while it is locked (400
 * `VIEW_LOCKED`); the owner or a project Admin deletes it. Favourites: project Admins and Members.
 * A view the caller cannot see is a 404.
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
export class AppProjectViewsController {
  constructor(
    private readonly views: ViewService,
    private readonly favorites: FavoriteService,
  ) {}

  /** The views the caller sees, favourites first then by name, a bare array; `fields=` narrows each. */
  @Get('views')
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return withFields(query, await this.views.list(projectScope(me, ws, project)));
  }

  /** 201 with the view, owned by the caller; 400 `PROJECT_ARCHIVED`; 422 (also a bad `filters` value). */
  @Post('views')
  @ProjectRole(ROLE.GUEST)
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateViewDto,
  ) {
    return this.views.create(projectScope(me, ws, project), body);
  }

  @Get('views/:view_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('view_id', UuidPipe) id: string,
  ) {
    return this.views.retrieve(projectScope(me, ws, project), id);
  }

  /** 200; the owner only (403); 400 `VIEW_LOCKED` unless the body has `is_locked: false`. */
  @Patch('views/:view_id')
  @ProjectRole(ROLE.GUEST)
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('view_id', UuidPipe) id: string,
    @Body() body: UpdateViewDto,
  ) {
    return this.views.update(projectScope(me, ws, project), id, body);
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put('views/:view_id')
  @ProjectRole(ROLE.GUEST)
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('view_id', UuidPipe) id: string,
    @Body() body: UpdateViewDto,
  ) {
    return this.update(me, ws, project, id, body);
  }

  /** 204; the owner or a project Admin (403). */
  @Delete('views/:view_id')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('view_id', UuidPipe) id: string,
  ) {
    await this.views.remove(projectScope(me, ws, project), id);
  }

  /**
   * The view's work items: the project work item list (`GET …/issues/`: same envelope, paging,
   * `group_by`, `sub_group_by`, `order_by` and App values) with the view's `filters`; a filter given in the query
   * replaces the view's for that key. Without `order_by` or `sub_issue`, the view's
   * `display_filters` decide. (Plane's web app has this call; Plane 0.25.3 routes none.)
   */
  @Get('views/:view_id/issues')
  listIssues(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('view_id', UuidPipe) id: string,
    @PageQuery(APP_PAGED_BY_NUMBER) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const q = listQuery(query, page, me, project);
    if (single(query, 'sub_issue') === undefined) delete q.top_level;
    return this.views.listIssues(
      projectScope(me, ws, project),
      id,
      q,
      single(query, 'group_by'),
      single(query, 'sub_group_by'),
    );
  }

  /** The caller's favourites of this project's views, as `user-favorites/` shows them, a bare array. */
  @Get('user-favorite-views')
  @ProjectRole(ROLE.MEMBER)
  async listFavorites(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    return (await this.favorites.list(ws.workspaceId, me.userId)).filter(
      (f) => f.entity_type === 'view' && f.project_id === project.projectId,
    );
  }

  /** 204; `{view}`: a view of this project the caller sees, else 404; adding one twice is a no-op. */
  @Post('user-favorite-views')
  @HttpCode(204)
  @ProjectRole(ROLE.MEMBER)
  async addFavorite(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: FavoriteViewDto,
  ) {
    await this.views.favorite(projectScope(me, ws, project), body.view);
  }

  /** 204; 404 if the view is not among the caller's favourites. */
  @Delete('user-favorite-views/:view_id')
  @HttpCode(204)
  @ProjectRole(ROLE.MEMBER)
  async removeFavorite(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('view_id', UuidPipe) id: string,
  ) {
    await this.views.unfavorite(projectScope(me, ws, project), id);
  }
}

/**
 * The workspace's saved views (Plane 0.25.3 `app/urls/views.py` `workspaces/{slug}/views/`,
 * `WorkspaceViewViewSet`): views of work items across the workspace's projects, `project` null.
 * Any workspace member reads and creates them; a Guest sees only their own. Only the owner changes
 * a view (403), not while it is locked (400 `VIEW_LOCKED`); the owner or a workspace Admin deletes
 * it. (Their work items are the workspace work item list, `GET workspaces/{slug}/issues/`.)
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppWorkspaceViewsController {
  constructor(private readonly views: ViewService) {}

  /**
   * The views the caller sees, a bare array; `order_by` (`created_at`, `updated_at`, `name`,
   * `sort_order`, `-` for descending; default `-created_at`), else 400; `fields=` narrows each.
   */
  @Get('views')
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query() query: Record<string, unknown>,
  ) {
    return withFields(query, await this.views.list(workspaceScope(me, ws), single(query, 'order_by')));
  }

  /** 201 with the view, owned by the caller; 422 (also a bad `filters` value). */
  @Post('views')
  create(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess, @Body() body: CreateViewDto) {
    return this.views.create(workspaceScope(me, ws), body);
  }

  @Get('views/:view_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('view_id', UuidPipe) id: string,
  ) {
    return this.views.retrieve(workspaceScope(me, ws), id);
  }

  /** 200; the owner only (403); 400 `VIEW_LOCKED` unless the body has `is_locked: false`. */
  @Patch('views/:view_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('view_id', UuidPipe) id: string,
    @Body() body: UpdateViewDto,
  ) {
    return this.views.update(workspaceScope(me, ws), id, body);
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put('views/:view_id')
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('view_id', UuidPipe) id: string,
    @Body() body: UpdateViewDto,
  ) {
    return this.update(me, ws, id, body);
  }

  /** 204; the owner or a workspace Admin (403). */
  @Delete('views/:view_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('view_id', UuidPipe) id: string,
  ) {
    await this.views.remove(workspaceScope(me, ws), id);
  }
}
