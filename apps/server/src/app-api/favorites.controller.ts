import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { FavoriteService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  CreateFavoriteDto,
  FavoriteCycleDto,
  FavoriteModuleDto,
  FavoriteProjectDto,
  UpdateFavoriteDto,
} from './dto/preference.dto';

/**
 * The caller's favourites in a workspace (Plane 0.25.3 `app/urls/workspace.py` `user-favorites/`,
 * WorkspaceFavoriteEndpoint and WorkspaceFavoriteGroupEndpoint): workspace Admins and Members
 * (Guests 403). Each favourite answers as Plane's `UserFavoriteSerializer`, with `entity_data`.
 */
@Controller('workspaces/:slug/user-favorites')
@BearerAuth()
@WorkspaceRole(ROLE.MEMBER)
export class AppFavoritesController {
  constructor(private readonly favorites: FavoriteService) {}

  /** The top-level favourites (folders and what is outside folders), highest `sequence` first, a plain array. */
  @Get()
  list(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.favorites.list(ws.workspaceId, me.userId);
  }

  /**
   * 200 with the favourite (Plane answers 200, also when the entity was a favourite already). 404
   * for an entity, or a `parent`, that is not the caller's to see; 422 (a folder without a name,
   * an entity without `entity_identifier`, a `parent` that is not a folder, an unknown `entity_type`).
   */
  @Post()
  @HttpCode(200)
  create(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess, @Body() body: CreateFavoriteDto) {
    return this.favorites.create(ws.workspaceId, me.userId, body);
  }

  /** 200; `name`, `sequence`, `parent` (a folder of the caller's, or null); 404 for another user's favourite. */
  @Patch(':favorite_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('favorite_id', UuidPipe) id: string,
    @Body() body: UpdateFavoriteDto,
  ) {
    return this.favorites.update(ws.workspaceId, me.userId, id, body);
  }

  /** 204; a folder goes with what it holds. */
  @Delete(':favorite_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('favorite_id', UuidPipe) id: string,
  ) {
    await this.favorites.remove(ws.workspaceId, me.userId, id);
  }

  /** What the folder holds, highest `sequence` first; 404 for another user's favourite. */
  @Get(':favorite_id/group')
  group(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('favorite_id', UuidPipe) id: string,
  ) {
    return this.favorites.group(ws.workspaceId, me.userId, id);
  }
}

/**
 * The older per-entity favourite routes the web app still calls (Plane 0.25.3
 * `app/urls/project.py` `user-favorite-projects/`, `cycle.py` `user-favorite-cycles/`,
 * `module.py` `user-favorite-modules/`): the same favourites as `user-favorites/`. Adding one that
 * exists already is a no-op; removing one the caller does not have is a 404.
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppEntityFavoritesController {
  constructor(private readonly favorites: FavoriteService) {}

  /** The caller's project favourites, as `user-favorites/` shows them (any workspace member). */
  @Get('user-favorite-projects')
  async listProjects(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return (await this.favorites.list(ws.workspaceId, me.userId)).filter((f) => f.entity_type === 'project');
  }

  /** 204; `{project}`: a project the caller is an active member of, else 404. */
  @Post('user-favorite-projects')
  @HttpCode(204)
  async addProject(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: FavoriteProjectDto,
  ) {
    await this.favorites.create(ws.workspaceId, me.userId, { entity_type: 'project', entity_identifier: body.project });
  }

  @Delete('user-favorite-projects/:project_ref')
  @HttpCode(204)
  async removeProject(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('project_ref', UuidPipe) projectId: string,
  ) {
    await this.favorites.removeEntity(ws.workspaceId, me.userId, 'project', projectId, projectId);
  }

  /** 204; `{cycle}`: a cycle of this project; project Admins and Members. */
  @Post('projects/:project_id/user-favorite-cycles')
  @HttpCode(204)
  @ProjectRole(ROLE.MEMBER)
  async addCycle(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: FavoriteCycleDto,
  ) {
    await this.favorites.createInProject(ws.workspaceId, me.userId, project.projectId, 'cycle', body.cycle);
  }

  @Delete('projects/:project_id/user-favorite-cycles/:cycle_id')
  @HttpCode(204)
  @ProjectRole(ROLE.MEMBER)
  async removeCycle(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) cycleId: string,
  ) {
    await this.favorites.removeEntity(ws.workspaceId, me.userId, 'cycle', cycleId, project.projectId);
  }

  /** 204; `{module}`: a module of this project; any project role (Plane's `ProjectLitePermission`). */
  @Post('projects/:project_id/user-favorite-modules')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async addModule(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: FavoriteModuleDto,
  ) {
    await this.favorites.createInProject(ws.workspaceId, me.userId, project.projectId, 'module', body.module);
  }

  @Delete('projects/:project_id/user-favorite-modules/:module_id')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async removeModule(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
  ) {
    await this.favorites.removeEntity(ws.workspaceId, me.userId, 'module', moduleId, project.projectId);
  }
}
