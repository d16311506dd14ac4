import {
  AuditActor,
  CurrentActor,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  listAnswer,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  Public,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { ProjectInvitationJson, ProjectInvitationService, ProjectJoinJson } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { InviteDto } from './dto/app-api.dto';
import { AnswerProjectInvitationDto } from './dto/profile.dto';

const PROJECT = 'workspaces/:slug/projects/:project_id';

/**
 * A project's invitations (Plane 0.25.3 `plane/app/views/project/invite.py` ProjectInvitationsViewset):
 * project Admins only. Objects are Plane's `ProjectMemberInviteSerializer` without `token`.
 */
@Controller(`${PROJECT}/invitations`)
@BearerAuth()
@ProjectRole(ROLE.ADMIN)
export class AppProjectInvitationsController {
  constructor(private readonly invitations: ProjectInvitationService) {}

  /** The project's live invitations, newest first, a bare array (Plane never pages it). */
  @Get()
  async list(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<ProjectInvitationJson[] | Page<ProjectInvitationJson>> {
    return listAnswer(page, await this.invitations.list(ws.workspaceId, project.projectId, page));
  }

  /**
   * `{emails: [{email, role}], message?}` → 200 `{message}`; 422 no or bad emails; 400
   * `INVITE_ROLE_MISMATCH` for a workspace Guest or Admin invited with another role.
   */
  @Post()
  @HttpCode(200)
  invite(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: InviteDto,
  ): Promise<{ message: string }> {
    return this.invitations.invite(ws.workspaceId, project.projectId, me.userId, body, actor);
  }

  /** 200 the invitation; 404 `INVITATION_NOT_FOUND` for another project's. */
  @Get(':invitation_id')
  retrieve(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('invitation_id', UuidPipe) id: string,
  ): Promise<ProjectInvitationJson> {
    return this.invitations.get(ws.workspaceId, project.projectId, id);
  }

  /** 204: deletes the invitation. */
  @Delete(':invitation_id')
  @HttpCode(204)
  async revoke(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('invitation_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.invitations.revoke(ws.workspaceId, project.projectId, id);
  }
}

/**
 * Answering a project invitation (Plane's `ProjectJoinEndpoint`, `AllowAny`): public, with the
 * invited `email`. A wrong slug, project or id is a 404 `INVITATION_NOT_FOUND`.
 */
@Controller(`${PROJECT}/join/:invitation_id`)
@Public()
export class AppProjectJoinController {
  constructor(private readonly invitations: ProjectInvitationService) {}

  /**
   * 200 `{id, project: {id, identifier, name, logo_props}, workspace: {id, name, slug, logo_url},
   * accepted, responded_at}`: what a join screen needs, without the invitee's email or the
   * project's description (Plane answers its whole serializer).
   */
  @Get()
  retrieve(
    @Param('slug') slug: string,
    @Param('project_id', UuidPipe) projectId: string,
    @Param('invitation_id', UuidPipe) id: string,
  ): Promise<ProjectJoinJson> {
    return this.invitations.getPublic(slug, projectId, id);
  }

  /**
   * `{email, accepted}` → 200 `{message}`; 403 `INVITATION_EMAIL_MISMATCH`; 400
   * `INVITATION_ALREADY_RESPONDED`; 404 `USER_DOES_NOT_EXIST` when accepting without an account.
   */
  @Post()
  @HttpCode(200)
  answer(
    @Param('slug') slug: string,
    @Param('project_id', UuidPipe) projectId: string,
    @Param('invitation_id', UuidPipe) id: string,
    @Body() body: AnswerProjectInvitationDto,
  ): Promise<{ message: string }> {
    return this.invitations.answer(slug, projectId, id, body);
  }
}

/** The caller's project invitations (Plane's `UserProjectInvitationsViewset.list`). */
@Controller('users/me/workspaces/:slug/projects/invitations')
@BearerAuth()
export class AppMyProjectInvitationsController {
  constructor(private readonly invitations: ProjectInvitationService) {}

  /** The live invitations addressed to the caller's email, in every workspace, newest first, a bare array. */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<ProjectInvitationJson[] | Page<ProjectInvitationJson>> {
    return listAnswer(page, await this.invitations.listForEmail(me.email, page));
  }
}
