import {
  AuditActor,
  CurrentActor,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  listAnswer,
  MeridianError,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  Public,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { InvitationJson, WorkspaceInvitationService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { InviteDto, JoinInvitationDto, RoleDto } from './dto/app-api.dto';

/** Workspace invitations (Plane `plane/app/views/workspace/invite.py` WorkspaceInvitationsViewset): Admins and Members. */
@Controller('workspaces/:slug/invitations')
@BearerAuth()
@WorkspaceRole(ROLE.MEMBER)
export class InvitationsController {
  constructor(private readonly invitations: WorkspaceInvitationService) {}

  /** Every invitation of the workspace, a bare array (Plane's `WorkspaceInvitationsViewset.list`). */
  @Get()
  async list(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<InvitationJson[] | Page<InvitationJson>> {
    return listAnswer(page, await this.invitations.list(ws.workspaceId, page));
  }

  /**
   * `{emails: [{email, role}], message?}` → 200 `{message}`; one email each with a link to
   * `WEB_URL/workspace-invitations/`. 403 for a role above the caller's; 409 `ALREADY_WORKSPACE_MEMBER`.
   */
  @Post()
  @HttpCode(200)
  invite(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: InviteDto,
  ): Promise<{ message: string }> {
    return this.invitations.invite(
      ws.workspaceId,
      { userId: me.userId, email: me.email, role: ws.role, audit: actor },
      body,
    );
  }

  @Get(':invitation_id')
  retrieve(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('invitation_id', UuidPipe) id: string,
  ): Promise<InvitationJson> {
    return this.invitations.get(ws.workspaceId, id);
  }

  /** `{role}` → 200; 403 above the caller's role. */
  @Patch(':invitation_id')
  updateRole(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('invitation_id', UuidPipe) id: string,
    @Body() body: RoleDto,
  ): Promise<InvitationJson> {
    return this.invitations.updateRole(
      ws.workspaceId,
      { userId: me.userId, email: me.email, role: ws.role },
      id,
      body.role,
    );
  }

  /** 204: revokes the invitation; its link stops working. */
  @Delete(':invitation_id')
  @HttpCode(204)
  async revoke(@CurrentWorkspace() ws: WorkspaceAccess, @Param('invitation_id', UuidPipe) id: string): Promise<void> {
    await this.invitations.revoke(ws.workspaceId, id);
  }
}

/**
 * Answering an invitation through its emailed link (public, as in Plane), which must carry the
 * link's `token`: a wrong slug, id or token is a 404 `INVITATION_NOT_FOUND`.
 */
@Controller('workspaces/:slug/invitations/:invitation_id/join')
@Public()
export class InvitationJoinController {
  constructor(private readonly invitations: WorkspaceInvitationService) {}

  /** `?token=` → 200 the invitation. */
  @Get()
  retrieve(
    @Param('slug') slug: string,
    @Param('invitation_id', UuidPipe) id: string,
    @Query('token') token: unknown,
  ): Promise<InvitationJson> {
    if (typeof token !== 'string' || !token) throw new MeridianError('INVITATION_NOT_FOUND');
    return this.invitations.getByLink(slug, id, token);
  }

  /** `{email, accepted, token}` → 200 `{message}`; 403 `INVITATION_EMAIL_MISMATCH`; 400 `INVITATION_ALREADY_RESPONDED`. */
  @Post()
  @HttpCode(200)
  join(
    @Param('slug') slug: string,
    @Param('invitation_id', UuidPipe) id: string,
    @Body() body: JoinInvitationDto,
  ): Promise<{ message: string }> {
    return this.invitations.join(slug, id, body);
  }
}
