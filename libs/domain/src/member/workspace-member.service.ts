import { AuditActor, MeridianError, Page, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { auditActorById, recordAudit } from '../kernel/audit';
import { lockWorkspace } from '../kernel/locks';
import { ApiTokenService } from '../api-token';
import { ProjectMemberService } from '../project';
import {
  WorkspaceMemberJson,
  WorkspaceMemberMeJson,
  workspaceMemberMeView,
  workspaceMemberView,
  WorkspaceService,
} from '../workspace';
import { MemberRepository } from './member.repository';

/** The caller, as membership rules need it. */
export interface MemberActor {
  userId: string;
  /** the caller's workspace role */
  role: number;
  /** who and from where, for the audit log (default: `userId` without an address) */
  audit?: AuditActor;
}

/**
 * Workspace memberships (Plane `plane/app/views/workspace/member.py`): list, retrieve, change
 * role, remove, leave. Removal and leaving deactivate the membership (`is_active = false`) and
 * every project membership of the user in the workspace, and revoke the user's API keys for the
 * workspace (401 from then on, even if they rejoin); their sessions see the workspace as unknown (404).
 */
@Injectable()
export class WorkspaceMemberService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly members: MemberRepository,
    private readonly workspaces: WorkspaceService,
    private readonly projectMembers: ProjectMemberService,
    private readonly apiTokens: ApiTokenService,
  ) {}

  /** Active members, oldest membership first; `search` matches display, first or last name and email. */
  async list(
    workspaceId: string,
    viewerRole: number,
    page: PageRequest,
    search?: string,
    viewerId?: string,
  ): Promise<Page<WorkspaceMemberJson>> {
    const result = await this.workspaces.activeMembersPage(workspaceId, page, viewerRole, search);
    return result.map((row) => workspaceMemberView(row as never, viewerRole, viewerId));
  }

  /** One active membership row of the workspace; another workspace's id or an inactive row is a 404. */
  async get(
    workspaceId: string,
    memberRowId: string,
    viewerRole: number,
    viewerId?: string,
  ): Promise<WorkspaceMemberJson> {
    return workspaceMemberView(
      (await this.findActive(undefined, workspaceId, memberRowId)) as never,
      viewerRole,
      viewerId,
    );
  }

  /**
   * The caller's own active membership (`workspace-members/me/`, `workspaceMemberMeView`: with
   * `view_props`, `default_props`, `issue_props`, `draft_issue_count`); 404 when there is none.
   */
  async me(workspaceId: string, userId: string, viewerRole: number): Promise<WorkspaceMemberMeJson> {
    const row = await this.workspaces.findActiveMember({ workspaceId, memberId: userId });
    const own = row && (await this.workspaces.activeViewProps(workspaceId, userId));
    if (!row || !own) throw new MeridianError('NOT_FOUND');
    return workspaceMemberMeView(row as never, viewerRole, userId, {
      viewProps: own.viewProps,
      draftIssueCount: await this.members.liveDraftCount(workspaceId, userId),
    });
  }

  /**
   * `POST workspace-views/` (Plane 0.25.3 `app/views/workspace/member.py`
   * `WorkspaceMemberUserViewsEndpoint.post`): replaces the caller's own `view_props` in the
   * workspace (Plane stores `{}` when none is sent). 404 `WORKSPACE_NOT_FOUND` without an active
   * membership (the membership went away since the route's check).
   */
  async saveViewProps(workspaceId: string, userId: string, viewProps: Record<string, unknown>): Promise<void> {
    if (!(await this.workspaces.saveViewProps(workspaceId, userId, viewProps))) {
      throw new MeridianError('WORKSPACE_NOT_FOUND');
    }
  }

  /**
   * Changes a member's role. 403 `PERMISSION_DENIED` for one's own role or a role above one's own;
   * 400 `LAST_WORKSPACE_ADMIN` when it would leave no active Admin. Demoting also lowers the user's
   * project roles above the new role (Plane).
   */
  async updateRole(
    workspaceId: string,
    actor: MemberActor,
    memberRowId: string,
    role: number,
  ): Promise<WorkspaceMemberJson> {
    await this.dataSource.transaction(async (em) => {
      await lockWorkspace(em, workspaceId);
      const row = await this.findActive(em, workspaceId, memberRowId);
      if (row.memberId === actor.userId)
        throw new MeridianError('PERMISSION_DENIED', 'You cannot update your own role.');
      if (role > actor.role || row.role > actor.role) {
        throw new MeridianError('PERMISSION_DENIED', 'You cannot give or change a role above your own.');
      }
      if (row.role === ROLE.ADMIN && role < ROLE.ADMIN) await this.assertAnotherAdmin(em, workspaceId, row.memberId);
      await this.workspaces.setMemberRole(row.id, role, actor.userId, em);
      if (role < row.role) {
        await this.projectMembers.lowerRolesInWorkspace(workspaceId, row.memberId, role, actor.userId, em);
      }
      if (role !== row.role)
        await recordAudit(em, {
          event: 'member.role_changed',
          actor: actor.audit ?? auditActorById(actor.userId),
          workspaceId,
          target: { type: 'workspace_member', id: row.id },
          metadata: {
            member_id: row.memberId,
            member_email: row.member?.email ?? null,
            old_role: row.role,
            new_role: role,
          },
        });
    });
    return this.get(workspaceId, memberRowId, actor.role);
  }

  /**
   * Removes a member: deactivates the membership and their project memberships. 400
   * `CANNOT_REMOVE_SELF` for oneself (use leave), 403 for a member with a role above the caller's.
   */
  async remove(workspaceId: string, actor: MemberActor, memberRowId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await lockWorkspace(em, workspaceId);
      const row = await this.findActive(em, workspaceId, memberRowId);
      if (row.memberId === actor.userId) throw new MeridianError('CANNOT_REMOVE_SELF');
      if (row.role > actor.role)
        throw new MeridianError('PERMISSION_DENIED', 'You cannot remove a member with a role above your own.');
      if (row.role === ROLE.ADMIN) await this.assertAnotherAdmin(em, workspaceId, row.memberId);
      await this.deactivate(em, workspaceId, row.memberId, actor.userId);
      await recordAudit(em, {
        event: 'member.removed',
        actor: actor.audit ?? auditActorById(actor.userId),
        workspaceId,
        target: { type: 'workspace_member', id: row.id },
        metadata: { member_id: row.memberId, member_email: row.member?.email ?? null, role: row.role, via: 'removed' },
      });
    });
  }

  /** The caller leaves the workspace; 400 `LAST_WORKSPACE_ADMIN` if they are its only active Admin. */
  async leave(workspaceId: string, userId: string, actor: AuditActor = auditActorById(userId)): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await lockWorkspace(em, workspaceId);
      const row = await this.workspaces.findActiveMember({ workspaceId, memberId: userId }, false, em);
      if (!row) throw new MeridianError('WORKSPACE_NOT_FOUND');
      if (row.role === ROLE.ADMIN) await this.assertAnotherAdmin(em, workspaceId, userId);
      await this.deactivate(em, workspaceId, userId, userId);
      await recordAudit(em, {
        event: 'member.removed',
        actor,
        workspaceId,
        target: { type: 'workspace_member', id: row.id },
        metadata: { member_id: userId, member_email: actor.email, role: row.role, via: 'left' },
      });
    });
  }

  private async deactivate(em: EntityManager, workspaceId: string, userId: string, actorId: string) {
    await this.workspaces.deactivateMember(workspaceId, userId, actorId, em);
    await this.projectMembers.deactivateAllInWorkspace(workspaceId, userId, actorId, em);
    // their keys for this workspace are revoked for good, so that coming back does not revive them
    await this.apiTokens.revokeForMember(workspaceId, userId, em);
  }

  private async assertAnotherAdmin(em: EntityManager, workspaceId: string, userId: string) {
    const others = await this.workspaces.countOtherActiveAdmins(workspaceId, userId, em);
    if (others === 0) throw new MeridianError('LAST_WORKSPACE_ADMIN');
  }

  private async findActive(em: EntityManager | undefined, workspaceId: string, memberRowId: string) {
    const row = await this.workspaces.findActiveMember({ id: memberRowId, workspaceId }, true, em);
    if (!row) throw new MeridianError('NOT_FOUND');
    return row;
  }
}
