import { BearerAuth, CurrentPrincipal, CurrentWorkspace, Principal, Public, WorkspaceAccess } from '#common';
import {
  AppProjectService,
  CycleService,
  EstimateService,
  ModuleService,
  ProfileService,
  ProjectMemberService,
  timezoneChoices,
} from '#domain';
import { Controller, Get } from '@nestjs/common';

/**
 * What the web app loads across a workspace at start-up (Plane 0.25.3 `app/urls/workspace.py`
 * `cycles/`, `modules/`, `estimates/`; `project.py` `projects/details/`): plain arrays. Any
 * workspace role; the cycles, modules and estimates are those of the projects the caller is an
 * active member of (Plane lists the whole workspace's: docs/decisions.md).
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppWorkspaceListsController {
  constructor(
    private readonly cycles: CycleService,
    private readonly modules: ModuleService,
    private readonly estimates: EstimateService,
    private readonly projects: AppProjectService,
  ) {}

  /** Non-archived cycles with Plane's progress counts, newest first. */
  @Get('cycles')
  async cyclesOfWorkspace(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.cycles.withProgress(await this.cycles.listForWorkspace(ws.workspaceId, me.userId), me.userId);
  }

  /** Non-archived modules with members and counts, newest first. */
  @Get('modules')
  modulesOfWorkspace(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.modules.listForWorkspace(ws.workspaceId, me.userId);
  }

  /** The projects' estimates, each with its `points` by key. */
  @Get('estimates')
  estimatesOfWorkspace(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.estimates.listForWorkspace(ws.workspaceId, me.userId);
  }

  /** The projects `GET projects/` lists (same visibility), all of them in a plain array by name. */
  @Get('projects/details')
  projectDetails(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.projects.listDetails(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role });
  }
}

/**
 * The signed-in user's standing across workspaces (Plane 0.25.3 `app/urls/project.py`
 * `users/me/workspaces/{slug}/project-roles/`, `workspace.py` `users/last-visited-workspace/`).
 */
@Controller('users')
@BearerAuth()
export class AppUserWorkspaceController {
  constructor(
    private readonly projectMembers: ProjectMemberService,
    private readonly profiles: ProfileService,
  ) {}

  /** `{<project_id>: <role>}` for the caller's active project memberships in the workspace (any workspace role). */
  @Get('me/workspaces/:slug/project-roles')
  projectRoles(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.projectMembers.roles(ws.workspaceId, me.userId);
  }

  /**
   * `{workspace_details, project_details}`: the profile's `last_workspace_id` workspace and the
   * caller's memberships of its projects; `{project_details: [], workspace_details: {}}` without one.
   */
  @Get('last-visited-workspace')
  lastVisitedWorkspace(@CurrentPrincipal() me: Principal) {
    return this.profiles.lastVisitedWorkspace(me.userId);
  }
}

/** `GET /api/timezones/` (Plane 0.25.3 `app/urls/timezone.py`, TimezoneEndpoint): public, as in Plane. */
@Controller('timezones')
@Public()
export class TimezonesController {
  /** `{timezones: [{utc_offset, gmt_offset, value, label}]}`, by the offset now, then label. */
  @Get()
  list() {
    return timezoneChoices();
  }
}
