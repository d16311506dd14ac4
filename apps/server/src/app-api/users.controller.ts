import {
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  listAnswer,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ROLE,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import {
  InvitationJson,
  ProjectInvitationService,
  UserMeJson,
  UserProfileService,
  WorkspaceInvitationService,
  WorkspaceJson,
  WorkspaceService,
} from '#domain';
import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { AcceptInvitationsDto, JoinProjectsDto, UpdateMeDto } from './dto/app-api.dto';

/**
 * The signed-in user (Plane `plane/app/views/`: `user/base.py` UserEndpoint, `workspace/base.py`
 * UserWorkSpacesEndpoint, `workspace/invite.py` UserWorkspaceInvitationsViewSet, `project/invite.py`
 * UserProjectInvitationsViewset).
 */
@Controller('users/me')
@BearerAuth()
export class UsersController {
  constructor(
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly invitations: WorkspaceInvitationService,
    private readonly projectInvitations: ProjectInvitationService,
  ) {}

  /** 200 Plane's UserMe fields; never a password hash or token. */
  @Get()
  me(@CurrentPrincipal() me: Principal): Promise<UserMeJson> {
    return this.users.me(me.userId);
  }

  /** 200 the updated user (other fields, e.g. email, password, flags, ignored as Plane); 422 a bad time zone; 409 a taken username. */
  @Patch()
  update(@CurrentPrincipal() me: Principal, @Body() body: UpdateMeDto): Promise<UserMeJson> {
    return this.users.update(me.userId, body);
  }

  /** The caller's workspaces with `role` and `total_members`, oldest first, a bare array (Plane's `UserWorkSpacesEndpoint`). */
  @Get('workspaces')
  async myWorkspaces(
    @CurrentPrincipal() me: Principal,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<WorkspaceJson[] | Page<WorkspaceJson>> {
    return listAnswer(page, await this.workspaces.listForUser(me.userId, page));
  }

  /** Pending invitations addressed to the caller's email, a bare array (Plane's `UserWorkspaceInvitationsViewSet.list`). */
  @Get('workspaces/invitations')
  async myInvitations(
    @CurrentPrincipal() me: Principal,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<InvitationJson[] | Page<InvitationJson>> {
    return listAnswer(page, await this.invitations.listForEmail(me.email, page));
  }

  /** 204: accepts the listed invitations at once; 404 `INVITATION_NOT_FOUND` if one is not the caller's. */
  @Post('workspaces/invitations')
  @HttpCode(204)
  async acceptInvitations(@CurrentPrincipal() me: Principal, @Body() body: AcceptInvitationsDto): Promise<void> {
    await this.invitations.acceptMine({ userId: me.userId, email: me.email }, body.invitations);
  }

  /** 201 `{message}`: joins public projects with the caller's workspace role (Admins: any project). Guests 403. */
  @Post('workspaces/:slug/projects/invitations')
  @WorkspaceRole(ROLE.MEMBER)
  joinProjects(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: JoinProjectsDto,
  ): Promise<{ message: string }> {
    return this.projectInvitations.joinProjects(
      ws.workspaceId,
      { userId: me.userId, email: me.email, workspaceRole: ws.role },
      body.project_ids,
    );
  }
}
