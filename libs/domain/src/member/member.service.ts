import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { ProjectMemberService } from '../project';
import { UserProfileService, userMeView } from '../user';
import type { Viewer } from '../user';
import { WorkspaceService } from '../workspace';
import { MemberJson, memberView } from './member.view';

/**
 * Who the caller is and who else is in their workspace and projects (routes added to v1 after
 * Plane 0.25.3, called by `plane-node-sdk/dist/api/Users.js`, `Workspace.js`, `Projects.js` and
 * `plane-mcp-server/build/tools/user.js`). Lists are bare arrays.
 */
@Injectable()
export class MemberService {
  constructor(
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly projectMemberships: ProjectMemberService,
  ) {}

  /** The caller's own record (`GET /api/v1/users/me/`). */
  async me(userId: string) {
    const user = await this.users.userById(userId);
    if (!user) throw new MeridianError('NOT_FOUND');
    return userMeView(user);
  }

  /** Active members of the workspace, by display name, with their workspace role. */
  async workspaceMembers(workspaceId: string, viewer?: Viewer): Promise<MemberJson[]> {
    const rows = await this.workspaces.activeMembersByName(workspaceId);
    return rows.map((r) => memberView(r.member!, r.role, viewer));
  }

  /** Active members of the project, by display name, with their project role. */
  async projectMembers(projectId: string, viewer?: Viewer): Promise<MemberJson[]> {
    const rows = await this.projectMemberships.activeMembersByName(projectId);
    return rows.map((r) => memberView(r.member!, r.role, viewer));
  }
}
