import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  WorkspaceAccess,
} from '#common';
import { MemberService } from '#domain';
import { Controller, Get } from '@nestjs/common';

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
  constructor(private readonly members: MemberService) {}

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
}
