import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  singleParam,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { PreferenceService, QuickLinkService, RECENT_VISIT_ENTITIES, RecentVisitService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { DisplayPropertiesDto, HomePreferenceDto, QuickLinkDto, SidebarPreferenceDto } from './dto/preference.dto';

/**
 * The caller's own home page and sidebar settings in a workspace (Plane 0.25.3
 * `app/urls/workspace.py`: `home-preferences/`, `sidebar-preferences/`, `quick-links/`,
 * `recent-visits/`, `user-properties/`). Any workspace role, Guests included; everything here is
 * the caller's own, so another user's quick link is a 404.
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppWorkspacePreferencesController {
  constructor(
    private readonly preferences: PreferenceService,
    private readonly quickLinks: QuickLinkService,
    private readonly recentVisits: RecentVisitService,
  ) {}

  /** `[{key, is_enabled, config, sort_order}]` for `quick_links`, `recents`, `my_stickies` (created on first read). */
  @Get('home-preferences')
  homePreferences(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.preferences.homePreferences(ws.workspaceId, me.userId);
  }

  /** 200 `{key, is_enabled, sort_order}`; 404 for a key that is not a widget; 422. */
  @Patch('home-preferences/:key')
  updateHomePreference(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('key') key: string,
    @Body() body: HomePreferenceDto,
  ) {
    return this.preferences.updateHomePreference(ws.workspaceId, me.userId, key, body);
  }

  /** `{<key>: {is_pinned, sort_order}}` for the six sidebar entries (created on first read). */
  @Get('sidebar-preferences')
  sidebarPreferences(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.preferences.sidebarPreferences(ws.workspaceId, me.userId);
  }

  /** 200 `{key, is_pinned, sort_order}`; 404 for a key that is not a sidebar entry; 422. */
  @Patch('sidebar-preferences/:key')
  updateSidebarPreference(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('key') key: string,
    @Body() body: SidebarPreferenceDto,
  ) {
    return this.preferences.updateSidebarPreference(ws.workspaceId, me.userId, key, body);
  }

  /** The caller's quick links, newest first, a plain array. */
  @Get('quick-links')
  listQuickLinks(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.quickLinks.list(ws.workspaceId, me.userId);
  }

  /** 201; `url` required (`http://` put in front of one without a scheme); 409 `QUICK_LINK_EXISTS`; 422. */
  @Post('quick-links')
  createQuickLink(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: QuickLinkDto,
  ) {
    return this.quickLinks.create(ws.workspaceId, me.userId, body);
  }

  @Get('quick-links/:link_id')
  retrieveQuickLink(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('link_id', UuidPipe) id: string,
  ) {
    return this.quickLinks.retrieve(ws.workspaceId, me.userId, id);
  }

  @Patch('quick-links/:link_id')
  updateQuickLink(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('link_id', UuidPipe) id: string,
    @Body() body: QuickLinkDto,
  ) {
    return this.quickLinks.update(ws.workspaceId, me.userId, id, body);
  }

  @Delete('quick-links/:link_id')
  @HttpCode(204)
  async removeQuickLink(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('link_id', UuidPipe) id: string,
  ) {
    await this.quickLinks.remove(ws.workspaceId, me.userId, id);
  }

  /**
   * The caller's 20 latest visited work items and projects, newest first, each with `entity_data`;
   * `?entity_name=issue|project` keeps one kind (`page` and other names give an empty list).
   */
  @Get('recent-visits')
  listRecentVisits(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Query('entity_name') entityName?: unknown,
  ) {
    const entity = singleParam({ entity_name: entityName }, 'entity_name');
    if (entity && !(RECENT_VISIT_ENTITIES as readonly string[]).includes(entity)) return [];
    return this.recentVisits.list(ws.workspaceId, me.userId, entity || undefined);
  }

  /** The caller's settings for the workspace-wide work item views (created with Plane's defaults on first read). */
  @Get('user-properties')
  workspaceProperties(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.preferences.displayProperties({ kind: 'workspace', workspaceId: ws.workspaceId }, me.userId);
  }

  /** 200; each of `filters`, `display_filters`, `display_properties` given replaces the stored one; 422 if not an object. */
  @Patch('user-properties')
  updateWorkspaceProperties(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: DisplayPropertiesDto,
  ) {
    return this.preferences.updateDisplayProperties(
      { kind: 'workspace', workspaceId: ws.workspaceId },
      me.userId,
      body,
    );
  }
}

/**
 * The caller's work item list settings for a project, a cycle and a module (Plane 0.25.3
 * `app/urls/issue.py` `user-properties/`, `cycle.py` and `module.py` `…/user-properties/`): any
 * project role reads and writes their own (Plane's `allow_permission([ADMIN, MEMBER, GUEST])`). A
 * cycle or module that is not the project's is a 404.
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppDisplayPropertiesController {
  constructor(private readonly preferences: PreferenceService) {}

  @Get('user-properties')
  project(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    return this.preferences.displayProperties(
      { kind: 'project', workspaceId: ws.workspaceId, projectId: project.projectId },
      me.userId,
    );
  }

  @Patch('user-properties')
  updateProject(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: DisplayPropertiesDto,
  ) {
    return this.preferences.updateDisplayProperties(
      { kind: 'project', workspaceId: ws.workspaceId, projectId: project.projectId },
      me.userId,
      body,
    );
  }

  @Get('cycles/:cycle_id/user-properties')
  cycle(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) cycleId: string,
  ) {
    return this.preferences.displayProperties(
      { kind: 'cycle', workspaceId: ws.workspaceId, projectId: project.projectId, cycleId },
      me.userId,
    );
  }

  @Patch('cycles/:cycle_id/user-properties')
  updateCycle(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('cycle_id', UuidPipe) cycleId: string,
    @Body() body: DisplayPropertiesDto,
  ) {
    return this.preferences.updateDisplayProperties(
      { kind: 'cycle', workspaceId: ws.workspaceId, projectId: project.projectId, cycleId },
      me.userId,
      body,
    );
  }

  @Get('modules/:module_id/user-properties')
  module(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
  ) {
    return this.preferences.displayProperties(
      { kind: 'module', workspaceId: ws.workspaceId, projectId: project.projectId, moduleId },
      me.userId,
    );
  }

  @Patch('modules/:module_id/user-properties')
  updateModule(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('module_id', UuidPipe) moduleId: string,
    @Body() body: DisplayPropertiesDto,
  ) {
    return this.preferences.updateDisplayProperties(
      { kind: 'module', workspaceId: ws.workspaceId, projectId: project.projectId, moduleId },
      me.userId,
      body,
    );
  }
}
