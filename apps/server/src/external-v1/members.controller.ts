import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { MemberService, ProjectMemberService } from '#domain';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { AddProjectMemberByEmailDto } from './dto/project-member.dto';

/**
 * `GET /api/v1/users/me/`: the API key's user (SDK `users.me`, `plane-node-sdk/dist/api/Users.js`;
 * MCP `get_user`, `plane-mcp-server/build/tools/user.js`).
 */
@Controller('users')
@ApiKeyAuth()
export class UsersController {
  constructor(private readonly members: MemberService) {}

  @Get('me')
  me(@CurrentPrincipal() me: Principal) {
    return this.members.me(me.userId);
  }
}

/**
 * Members as bare arrays of UserLite + `role` + `role_slug` (`plane-node-sdk/dist/models/Member.d.ts`;
 * `getMembers` in `dist/api/Workspace.js` and `Projects.js`): the workspace's (any member may read)
 * and a project's (project members may read).
 */
@Controller('workspaces/:slug')
@ApiKeyAuth()
export class MembersController {
  constructor(
    private readonly members: MemberService,
    private readonly memberships: ProjectMemberService,
  ) {}

  /** Guests see only their own email (the App API workspace member list's rule). */
  @Get('members')
  workspaceMembers(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    return this.members.workspaceMembers(ws.workspaceId, { userId: me.userId, role: ws.role });
  }

  /** `members/` (Plane 0.25.3) and `project-members/` (SDK `projects.getMembers`): the same list. */
  @Get(['projects/:project_id/members', 'projects/:project_id/project-members'])
  projectMembers(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    return this.members.projectMembers(project.projectId, { userId: me.userId, role: ws.role });
  }

  /**
   * `POST …/projects/{project_id}/members/` (Plane `plane/api/views/member.py`
   * ProjectMemberAPIEndpoint.post, `ProjectMemberPermission`: workspace Admin or Member): 201 with
   * the UserLite of the user with `email`, made inactive when unknown, now a member of the workspace
   * and the project with `role` (default 5). 400 `ALREADY_PROJECT_MEMBER`; 403 for a role above the
   * caller's; 422 for a bad body or a role the member's workspace role does not allow.
   */
  @Post('projects/:project_id/members')
  @WorkspaceRole(ROLE.MEMBER)
  @ProjectRole(ROLE.MEMBER, { orWorkspaceRole: ROLE.ADMIN })
  @HttpCode(201)
  addProjectMember(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: AddProjectMemberByEmailDto,
  ) {
    return this.memberships.addByEmail(
      { workspaceId: ws.workspaceId, projectId: project.projectId },
      { userId: me.userId, projectRole: project.role, workspaceRole: ws.role },
      body,
    );
  }
}
