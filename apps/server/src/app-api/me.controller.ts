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
import { ProfileService, ProjectMemberService, WorkspaceMemberService } from '#domain';
import { Body, Controller, Get, Patch } from '@nestjs/common';
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

/** The caller's own memberships: `workspace-members/me/` and `project-members/me/` (Plane 0.25.3). */
@Controller('workspaces/:slug')
@BearerAuth()
export class MembershipMeController {
  constructor(
    private readonly workspaceMembers: WorkspaceMemberService,
    private readonly projectMembers: ProjectMemberService,
  ) {}

  @Get('workspace-members/me')
  workspace(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.workspaceMembers.me(ws.workspaceId, me.userId, ws.role);
  }

  /** 200 the caller's project membership; a workspace member who can see a public project without joining it gets 404. */
  @Get('projects/:project_id/project-members/me')
  @ProjectRole('visible')
  project(@CurrentPrincipal() me: Principal, @CurrentProject() project: ProjectAccess) {
    return this.projectMembers.me(project.projectId, me.userId);
  }
}
