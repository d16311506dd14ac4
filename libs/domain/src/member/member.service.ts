import { MeridianError, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ProjectMember } from '../project';
import { User } from '../user';
import { userLiteFor, userLiteView, userMeView, Viewer } from '../user';
import { WorkspaceMember } from '../workspace';

const ROLE_SLUGS: Record<number, string> = { [ROLE.ADMIN]: 'admin', [ROLE.MEMBER]: 'member', [ROLE.GUEST]: 'guest' };

/**
 * A member as Plane's newer v1 lists them: UserLite plus `role` and `role_slug`
 * (`plane-node-sdk/dist/models/Member.d.ts`); with `viewer`, the email follows `canSeeEmail` (a Guest
 * sees only their own).
 */
export function memberView(user: User, role: number, viewer?: Viewer) {
  return { ...(viewer ? userLiteFor(user, viewer) : userLiteView(user)), role, role_slug: ROLE_SLUGS[role] ?? null };
}
export type MemberJson = ReturnType<typeof memberView>;

/**
 * Who the caller is and who else is in their workspace and projects (routes added to v1 after
 * Plane 0.25.3, called by `plane-node-sdk/dist/api/Users.js`, `Workspace.js`, `Projects.js` and
 * `plane-mcp-server/build/tools/user.js`). Lists are bare arrays.
 */
@Injectable()
export class MemberService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The caller's own record (`GET /api/v1/users/me/`). */
  async me(userId: string) {
    const user = await this.dataSource.getRepository(User).findOne({ where: { id: userId } });
    if (!user) throw new MeridianError('NOT_FOUND');
    return userMeView(user);
  }

  /** Active members of the workspace, by display name, with their workspace role. */
  async workspaceMembers(workspaceId: string, viewer?: Viewer): Promise<MemberJson[]> {
    const rows = await this.dataSource
      .getRepository(WorkspaceMember)
      .createQueryBuilder('wm')
      .innerJoinAndSelect('wm.member', 'u')
      .where('wm.workspaceId = :workspaceId AND wm.isActive = true', { workspaceId })
      .orderBy('u.displayName', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
    return rows.map((r) => memberView(r.member!, r.role, viewer));
  }

  /** Active members of the project, by display name, with their project role. */
  async projectMembers(projectId: string, viewer?: Viewer): Promise<MemberJson[]> {
    const rows = await this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .innerJoinAndSelect('pm.member', 'u')
      .where('pm.projectId = :projectId AND pm.isActive = true', { projectId })
      .orderBy('u.displayName', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .getMany();
    return rows.map((r) => memberView(r.member!, r.role, viewer));
  }
}
