import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  ProjectRole,
  WorkspaceAccess,
} from '#common';
import { ProfileService, ProjectMemberService, WorkspaceMemberMeJson, WorkspaceMemberService } from '#domain';
import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { WorkspaceUserViewsDto } from './dto/preference.dto';
import { OnboardDto, TourCompletedDto, UpdateProfileDto } from './dto/profile.dto';

/**
 * The signed-in user's app settings (Plane `plane/app/views/user/base.py`: ProfileEndpoint,
 * UserEndpoint.retrieve_user_settings, UpdateUserOnBoardedEndpoint, UpdateUserTourCompletedEndpoint):
 * profile (theme, onboarding state, last workspace…), the settings summary, onboarding and tour
 * flags. The time zone is the user's `user_timezone` (`PATCH /api/users/me/`).
 */
@Controller('users/me')
@BearerAuth()
export class ProfileController {
  constructor(private readonly profiles: ProfileService) {}

  /** 200 Plane's Profile (created on first read). */
  @Get('profile')
  profile(@CurrentPrincipal() me: Principal) {
    return this.profiles.get(me.userId);
  }

  /** 200 the profile (unknown fields ignored); 422 for a `last_workspace_id` that is not one of the caller's workspaces. */
  @Patch('profile')
  updateProfile(@CurrentPrincipal() me: Principal, @Body() body: UpdateProfileDto) {
    return this.profiles.update(me.userId, body);
  }

  /** `{id, email, workspace: {last_workspace_id, last_workspace_slug, fallback_workspace_id, fallback_workspace_slug, invites}}`. */
  @Get('settings')
  settings(@CurrentPrincipal() me: Principal) {
    return this.profiles.settings(me.userId);
  }

  /** `{is_onboarded}` → 200 `{message}`. */
  @Patch('onboard')
  async onboard(@CurrentPrincipal() me: Principal, @Body() body: OnboardDto) {
    await this.profiles.update(me.userId, { is_onboarded: body.is_onboarded });
    return { message: 'Updated successfully' };
  }

  /** `{is_tour_completed}` → 200 `{message}`. */
  @Patch('tour-completed')
  async tourCompleted(@CurrentPrincipal() me: Principal, @Body() body: TourCompletedDto) {
    await this.profiles.update(me.userId, { is_tour_completed: body.is_tour_completed });
    return { message: 'Updated successfully' };
  }
}

/**
 * The caller's own memberships: `workspace-members/me/`, `project-members/me/` and the caller's
 * view settings of the workspace, `workspace-views/` (Plane 0.25.3 `app/views/workspace/member.py`).
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class MembershipMeController {
  constructor(
    private readonly workspaceMembers: WorkspaceMemberService,
    private readonly projectMembers: ProjectMemberService,
  ) {}

  /**
   * 200 the caller's membership (Plane's `WorkspaceMemberUserEndpoint`): the member row with
   * `view_props` (the caller's own, else Plane's defaults), `default_props`, `issue_props` and
   * `draft_issue_count`.
   */
  @Get('workspace-members/me')
  workspace(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
  ): Promise<WorkspaceMemberMeJson> {
    return this.workspaceMembers.me(ws.workspaceId, me.userId, ws.role);
  }

  /**
   * `{view_props}` → 204 (Plane's `WorkspaceMemberUserViewsEndpoint.post`): replaces the caller's
   * own view settings of the workspace, read back by `workspace-members/me/`. Any workspace member
   * (Guests too); a non-member 404 `WORKSPACE_NOT_FOUND`; `view_props` not an object (or null) 422
   * `VALIDATION_ERROR`; left out, `{}` is stored as Plane does.
   */
  @Post('workspace-views')
  @HttpCode(204)
  async saveViews(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: WorkspaceUserViewsDto,
  ): Promise<void> {
    await this.workspaceMembers.saveViewProps(ws.workspaceId, me.userId, body.view_props ?? {});
  }

  /** 200 the caller's project membership; a workspace member who can see a public project without joining it gets 404. */
  @Get('projects/:project_id/project-members/me')
  @ProjectRole('visible')
  project(@CurrentPrincipal() me: Principal, @CurrentProject() project: ProjectAccess) {
    return this.projectMembers.me(project.projectId, me.userId);
  }
}
