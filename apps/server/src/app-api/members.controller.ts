import {
  AuditActor,
  CurrentActor,
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
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { WorkspaceMemberJson, WorkspaceMemberService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { RoleDto } from './dto/app-api.dto';

/**
 * Workspace members (Plane `plane/app/views/workspace/member.py` WorkSpaceMemberViewSet). `{member_id}` is the
 * membership row's id. Role changes and removals: Admins; the rules that depend on the target
 * (never one's own role, never above one's own, keep an Admin) are the service's.
 */
@Controller('workspaces/:slug/members')
@BearerAuth()
export class MembersController {
  constructor(private readonly members: WorkspaceMemberService) {}

  /**
   * Every active member, a bare array (Plane's `WorkSpaceMemberViewSet.list`); `?search=` on names
   * (and email for Admins and Members). Guests do not see emails.
   */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
    @Query('search') search?: unknown,
  ): Promise<WorkspaceMemberJson[] | Page<WorkspaceMemberJson>> {
    const found = await this.members.list(
      ws.workspaceId,
      ws.role,
      page,
      typeof search === 'string' ? search : undefined,
      me.userId,
    );
    return listAnswer(page, found);
  }

  /** 204: the caller leaves; 400 `LAST_WORKSPACE_ADMIN` for the only Admin. */
  @Post('leave')
  @HttpCode(204)
  async leave(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
  ): Promise<void> {
    await this.members.leave(ws.workspaceId, me.userId, actor);
  }

  /** 200 one active membership of this workspace; 404 `NOT_FOUND` otherwise. */
  @Get(':member_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('member_id', UuidPipe) id: string,
  ): Promise<WorkspaceMemberJson> {
    return this.members.get(ws.workspaceId, id, ws.role, me.userId);
  }

  /** Admins: `{role}` → 200; 403 for one's own role; 400 `LAST_WORKSPACE_ADMIN`. */
  @Patch(':member_id')
  @WorkspaceRole(ROLE.ADMIN)
  updateRole(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('member_id', UuidPipe) id: string,
    @Body() body: RoleDto,
  ): Promise<WorkspaceMemberJson> {
    return this.members.updateRole(ws.workspaceId, { userId: me.userId, role: ws.role, audit: actor }, id, body.role);
  }

  /** Admins: 204, deactivates the membership and the member's project memberships; 400 `CANNOT_REMOVE_SELF`. */
  @Delete(':member_id')
  @WorkspaceRole(ROLE.ADMIN)
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('member_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.members.remove(ws.workspaceId, { userId: me.userId, role: ws.role, audit: actor }, id);
  }
}
