import { AuditActor, MeridianError, Page, PageRequest, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { auditActorById, recordAudit } from '../kernel/audit';
import type { ReadBatch } from '../kernel/hot-query';
import { lockProject } from '../kernel/locks';
import { UserProfileService, userLiteView } from '../user';
import type { Viewer } from '../user';
import { activateWorkspaceMember, WorkspaceService } from '../workspace';
import { Project } from './project.entity';
import { ProjectMember } from './project-member.entity';
import { ProjectMemberJson, projectMemberView } from './project-member.view';
import { ProjectRepository } from './project.repository';

/** The caller, as project membership rules need it. */
export interface ProjectActor {
  userId: string;
  /** the caller's project role (null when not a member) */
  projectRole: number | null;
  workspaceRole: number;
  /** who and from where, for the audit log (default: `userId` without an address) */
  audit?: AuditActor;
}

/**
 * Project memberships (Plane `plane/app/views/project/member.py`): list, add, retrieve,
 * change role, remove. Workspace roles bound project roles: a workspace Admin is always a project
 * Admin, a workspace Guest only a project Guest; nobody gives a role above their own project role,
 * changes their own role or removes themself; the last project Admin stays (400).
 */
@Injectable()
export class ProjectMemberService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectRepository,
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** Active members of the project, oldest membership first. */
  async list(projectId: string, page: PageRequest, viewer?: Viewer): Promise<Page<ProjectMemberJson>> {
    return (await this.projects.listActiveMembersPage(projectId, page)).map((row) =>
      projectMemberView(row, row.member!, viewer),
    );
  }

  /** The caller's own active membership (`project-members/me/`); 404 `NOT_FOUND` for a non-member of a public project. */
  /**
   * `{<project_id>: <role>}` for every live project of the workspace the user is an active member
   * of (Plane's `UserProjectRolesEndpoint`).
   */
  async roles(workspaceId: string, userId: string): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const r of await this.projects.activeRoles(workspaceId, userId)) out[r.project_id] = Number(r.role);
    return out;
  }

  /**
   * `{<project_id>: [membership, …]}`: the active members of each live project of the workspace the
   * caller is an active member of (Plane 0.25.3 `app/views/workspace/member.py`
   * `WorkspaceProjectMemberEndpoint`); each row is `projectMemberView` without `project`.
   */
  async byMemberProjects(
    workspaceId: string,
    viewer: Viewer,
  ): Promise<Record<string, Array<Omit<ProjectMemberJson, 'project'>>>> {
    const out: Record<string, Array<Omit<ProjectMemberJson, 'project'>>> = {};
    for (const row of await this.projects.listMembersOfMemberProjects(workspaceId, viewer.userId)) {
      const { project, ...rest } = projectMemberView(row, row.member!, viewer);
      (out[project] ??= []).push(rest);
    }
    return out;
  }

  /**
   * Saves the caller's own view settings of a project (Plane 0.25.3 `app/views/project/base.py`
   * `ProjectUserViewsEndpoint.post`): each of `view_props`, `default_props`, `preferences`,
   * `sort_order` that is sent replaces the stored one. 403 `PERMISSION_DENIED` without an active
   * membership.
   */
  async saveViewProps(
    projectId: string,
    userId: string,
    input: {
      viewProps?: Record<string, unknown>;
      defaultProps?: Record<string, unknown>;
      preferences?: Record<string, unknown>;
      sortOrder?: number;
    },
  ): Promise<void> {
    const row = await this.projects.findMember(this.projects.manager, { projectId, memberId: userId, isActive: true });
    if (!row) throw new MeridianError('PERMISSION_DENIED');
    if (input.viewProps !== undefined) row.viewProps = input.viewProps;
    if (input.defaultProps !== undefined) row.defaultProps = input.defaultProps;
    if (input.preferences !== undefined) row.preferences = input.preferences;
    if (input.sortOrder !== undefined) row.sortOrder = input.sortOrder;
    await this.projects.saveMember(null, row);
  }

  async me(projectId: string, userId: string): Promise<ProjectMemberJson> {
    const row = await this.projects.findMember(
      this.projects.manager,
      { projectId, memberId: userId, isActive: true },
      true,
    );
    if (!row) throw new MeridianError('NOT_FOUND');
    return projectMemberView(row, row.member!);
  }

  async get(projectId: string, rowId: string, viewer?: Viewer): Promise<ProjectMemberJson> {
    const row = await this.findActive(this.projects.manager, projectId, rowId);
    return projectMemberView(row, row.member!, viewer);
  }

  /**
   * Adds (or reactivates) members: `[{member_id, role}]`, 201 with their rows. Each must be an
   * active workspace member (422); a role above the caller's is a 403; a role their workspace role
   * does not allow is a 422.
   */
  async add(
    projectId: string,
    actor: ProjectActor,
    members: Array<{ member_id: string; role: number }>,
  ): Promise<ProjectMemberJson[]> {
    const ids = members.map((m) => m.member_id.toLowerCase());
    if (new Set(ids).size !== ids.length) throw validationError({ members: ['A member is listed more than once.'] });
    if (members.some((m) => m.role > (actor.projectRole ?? 0))) {
      throw new MeridianError('PERMISSION_DENIED', 'You cannot give a role above your own.');
    }
    const rows = await this.dataSource.transaction(async (em) => {
      const project = await this.projects.findByIdOrFail(em, projectId);
      const wsRoles = await this.workspaceRoles(em, project.workspaceId, ids);
      const errors: Record<string, string[]> = {};
      members.forEach((m, i) => {
        const wsRole = wsRoles.get(ids[i]);
        const problem =
          wsRole === undefined ? 'This user is not a member of the workspace.' : roleProblem(wsRole, m.role);
        if (problem) errors[`members.${i}`] = [problem];
      });
      if (Object.keys(errors).length) throw validationError(errors);
      const out: ProjectMember[] = [];
      for (const [i, m] of members.entries()) {
        const row = await this.activate(em, project, ids[i], m.role, actor.userId);
        if (row.role !== m.role)
          await this.projects.updateMember(em, row.id, { role: m.role, updatedById: actor.userId });
        out.push(row);
      }
      return out;
    });
    const users = await this.users.liveUsers(ids);
    const byId = new Map(users.map((u) => [u.id, u]));
    const fresh = await this.projects.membersByIds(rows.map((r) => r.id));
    return fresh.map((row) => projectMemberView(row, byId.get(row.memberId)!));
  }

  /**
   * `POST /api/v1/…/projects/{project_id}/members/` (Plane `plane/api/views/member.py`
   * ProjectMemberAPIEndpoint.post): the user with `email` (made, inactive and without a password, when
   * no account has it, as Plane does) joins the workspace (if not an active member) and the project
   * with `role` (default Guest 5). 201 with UserLite. An active project member already: 400
   * `ALREADY_PROJECT_MEMBER`. Tighter than Plane: `role` is no higher than the caller's project role
   * (a workspace Admin counts as Admin) nor, for a new workspace membership, their workspace role
   * (403); an existing workspace member's role bounds the project role (422, as `add`).
   */
  async addByEmail(
    project: { workspaceId: string; projectId: string },
    actor: ProjectActor,
    input: { email: string; display_name: string; first_name?: string; last_name?: string; role?: number },
  ) {
    const role = input.role ?? ROLE.GUEST;
    const ceiling = actor.workspaceRole >= ROLE.ADMIN ? ROLE.ADMIN : (actor.projectRole ?? 0);
    if (role > ceiling) throw new MeridianError('PERMISSION_DENIED', 'You cannot give a role above your own.');
    const email = input.email.trim().toLowerCase();
    const user = await this.dataSource.transaction(async (em) => {
      const proj = await this.projects.findByIdOrFail(em, project.projectId);
      let user = await this.users.userByEmail(email, em);
      if (user) {
        const pm = await this.projects.findMember(em, { projectId: proj.id, memberId: user.id });
        if (pm?.isActive) throw new MeridianError('ALREADY_PROJECT_MEMBER');
      } else {
        user = await this.users.createUser(
          {
            email,
            displayName: input.display_name,
            firstName: input.first_name ?? '',
            lastName: input.last_name ?? '',
            passwordHash: null,
            isActive: false,
          },
          em,
        );
      }
      const ws = await this.workspaces.membership(proj.workspaceId, user.id, em);
      if (ws?.isActive) {
        const problem = roleProblem(ws.role, role);
        if (problem) throw validationError({ role: [problem] });
      } else {
        if (role > actor.workspaceRole)
          throw new MeridianError('PERMISSION_DENIED', 'You cannot give a workspace role above your own.');
        await activateWorkspaceMember(em, proj.workspaceId, user.id, role, actor.userId);
      }
      const row = await this.activate(em, proj, user.id, role, actor.userId);
      if (row.role !== role) await this.projects.updateMember(em, row.id, { role, updatedById: actor.userId });
      return user;
    });
    return userLiteView(user);
  }

  /**
   * Changes a member's project role. 403 for one's own role or a role above one's own; 422 when the
   * member's workspace role does not allow it; 400 `LAST_PROJECT_ADMIN`.
   */
  async updateRole(projectId: string, actor: ProjectActor, rowId: string, role: number): Promise<ProjectMemberJson> {
    await this.dataSource.transaction(async (em) => {
      await lockProject(em, projectId);
      const row = await this.findActive(em, projectId, rowId);
      if (row.memberId === actor.userId)
        throw new MeridianError('PERMISSION_DENIED', 'You cannot update your own role.');
      if (role > (actor.projectRole ?? 0) || row.role > (actor.projectRole ?? 0)) {
        throw new MeridianError('PERMISSION_DENIED', 'You cannot give or change a role above your own.');
      }
      const wsRole = (await this.workspaceRoles(em, row.workspaceId, [row.memberId])).get(row.memberId) ?? ROLE.GUEST;
      const problem = roleProblem(wsRole, role);
      if (problem) throw validationError({ role: [problem] });
      if (row.role === ROLE.ADMIN && role < ROLE.ADMIN) await this.assertAnotherAdmin(em, projectId, row.memberId);
      await this.projects.updateMember(em, row.id, { role, updatedById: actor.userId });
      if (role !== row.role)
        await recordAudit(em, {
          event: 'member.role_changed',
          actor: actor.audit ?? auditActorById(actor.userId),
          workspaceId: row.workspaceId,
          projectId,
          target: { type: 'project_member', id: row.id },
          metadata: { member_id: row.memberId, old_role: row.role, new_role: role },
        });
    });
    return this.get(projectId, rowId);
  }

  /** Removes (deactivates) a membership. 400 `CANNOT_REMOVE_SELF`; 403 above the caller's role; 400 `LAST_PROJECT_ADMIN`. */
  async remove(projectId: string, actor: ProjectActor, rowId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await lockProject(em, projectId);
      const row = await this.findActive(em, projectId, rowId);
      if (row.memberId === actor.userId) throw new MeridianError('CANNOT_REMOVE_SELF');
      if (row.role > (actor.projectRole ?? 0))
        throw new MeridianError('PERMISSION_DENIED', 'You cannot remove a member with a role above your own.');
      if (row.role === ROLE.ADMIN) await this.assertAnotherAdmin(em, projectId, row.memberId);
      await this.projects.updateMember(em, row.id, { isActive: false, updatedById: actor.userId });
      await recordAudit(em, {
        event: 'member.removed',
        actor: actor.audit ?? auditActorById(actor.userId),
        workspaceId: row.workspaceId,
        projectId,
        target: { type: 'project_member', id: row.id },
        metadata: { member_id: row.memberId, role: row.role, via: 'removed' },
      });
    });
  }

  /** The caller leaves the project; 400 `LAST_PROJECT_ADMIN` if they are its only active Admin. */
  async leave(projectId: string, userId: string, actor: AuditActor = auditActorById(userId)): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await lockProject(em, projectId);
      const row = await this.projects.findMember(em, { projectId, memberId: userId, isActive: true });
      if (!row) throw new MeridianError('PROJECT_NOT_FOUND');
      if (row.role === ROLE.ADMIN) await this.assertAnotherAdmin(em, projectId, userId);
      await this.projects.updateMember(em, row.id, { isActive: false, updatedById: userId });
      await recordAudit(em, {
        event: 'member.removed',
        actor,
        workspaceId: row.workspaceId,
        projectId,
        target: { type: 'project_member', id: row.id },
        metadata: { member_id: userId, role: row.role, via: 'left' },
      });
    });
  }

  /**
   * Makes `memberId` an active member of the project with `role`, in `em`'s transaction: reactivates a
   * former membership or creates one (new rows sort before the user's others, as in Plane). An active
   * member keeps their role unless `raise` is set and the role is higher.
   */
  async activate(
    em: EntityManager,
    project: Project,
    memberId: string,
    role: number,
    actorId: string,
    raise = false,
  ): Promise<ProjectMember> {
    const existing = await this.projects.findMember(em, { projectId: project.id, memberId });
    if (existing) {
      if (!existing.isActive)
        await this.projects.updateMember(em, existing.id, { isActive: true, role, updatedById: actorId });
      else if (raise && existing.role < role)
        await this.projects.updateMember(em, existing.id, { role, updatedById: actorId });
      return this.projects.memberByIdOrFail(em, existing.id);
    }
    const min = await this.projects.minMemberSortOrder(em, project.workspaceId, memberId);
    const sortOrder = min === null ? 65535 : min - 10000;
    return this.projects.createMember(em, {
      workspaceId: project.workspaceId,
      projectId: project.id,
      memberId,
      role,
      sortOrder,
      createdById: actorId,
      updatedById: actorId,
    });
  }

  private async workspaceRoles(
    em: EntityManager,
    workspaceId: string,
    userIds: string[],
  ): Promise<Map<string, number>> {
    if (!userIds.length) return new Map();
    const rows = await this.workspaces.activeMembersAmong(workspaceId, userIds, em);
    return new Map(rows.map((r) => [r.memberId, r.role]));
  }

  private async assertAnotherAdmin(em: EntityManager, projectId: string, userId: string) {
    const others = await this.projects.countOtherActiveAdmins(em, projectId, userId);
    if (others === 0) throw new MeridianError('LAST_PROJECT_ADMIN');
  }

  private async findActive(em: EntityManager, projectId: string, rowId: string) {
    const row = await this.projects.findMember(em, { id: rowId, projectId, isActive: true }, true);
    if (!row) throw new MeridianError('NOT_FOUND');
    return row;
  }

  /** The project's active memberships (entities, unpaginated), oldest first: for the rooms above. */
  activeMemberships(projectId: string): Promise<ProjectMember[]> {
    return this.projects.activeMembers(projectId);
  }

  /** Which of `userIds` are active members of the project, in the caller's transaction when `em` is given. */
  activeMemberIdsAmong(
    projectId: string,
    userIds: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    return this.projects.activeMemberIdsAmong(em, projectId, [...new Set(userIds)]);
  }

  /** The user ids of the project's active members, whatever their role (in no order): who a comment may mention. */
  activeMemberIds(projectId: string): Promise<string[]> {
    return this.projects.activeMemberIds(projectId);
  }

  /**
   * Which of `userIds` are active members of the project with a role of Member or above (in no
   * order): who may be assigned a work item (Plane drops the others), in the caller's transaction
   * when `em` is given.
   */
  async assignableAmong(
    projectId: string,
    userIds: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (!userIds.length) return [];
    return [...new Set(await this.projects.activeMemberIdsWithRole(em, projectId, userIds, ROLE.MEMBER))];
  }

  /**
   * `userId`'s role in the live, unarchived project of the workspace when they are an active member
   * of it; undefined otherwise (archived projects included): for the rooms above (search).
   */
  activeRoleInOpenProject(workspaceId: string, projectId: string, userId: string): Promise<number | undefined> {
    return this.projects.activeRoleInOpenProject(workspaceId, projectId, userId);
  }

  /**
   * `userId`'s active role (number) in the live project of the workspace, archived or not; null
   * when they are not an active member of it; `undefined` when the workspace has no such live
   * project. In the caller's transaction when `em` is given: for the rooms above (who may change a
   * project's cover image: the attachment room).
   */
  roleInLiveProject(
    workspaceId: string,
    projectId: string,
    userId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<number | null | undefined> {
    return this.projects.roleInLiveProject(em, workspaceId, projectId, userId);
  }

  /**
   * The live project of the workspace (archived or not) as a caller sees it: whether it is archived
   * and `userId`'s active role there (null when not an active member); undefined when the workspace
   * has no such live project. One statement, in the caller's transaction when `em` is given: for
   * the rooms above (a draft's project).
   */
  liveProjectWithRole(
    workspaceId: string,
    projectId: string,
    userId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<{ archived: boolean; role: number | null } | undefined> {
    return this.projects.liveProjectWithRole(em, workspaceId, projectId, userId);
  }

  // ---- memberships as the auth room's deactivation changes them; `em` is the caller's
  // transaction, the manager outside any when omitted

  /** Makes `userId`'s active memberships of every project inactive (Plane's `UserEndpoint.deactivate`). */
  async deactivateMembershipsOf(userId: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    await this.projects.deactivateMembershipsOf(em, userId);
  }

  /**
   * Whether `userId` is the only active Admin (20) of a project that has other active members
   * (Plane's `UserEndpoint.deactivate` refuses them: 400 `DEACTIVATE_ONLY_PROJECT_ADMIN` is the caller's).
   */
  isSoleAdminOfAny(userId: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.projects.isSoleAdminOfAny(em, userId);
  }

  // ---- for the member room (workspace membership changes, the v1 members list, the last workspace)

  /**
   * The project's active memberships (entities with `member`, the user), by display name then user
   * id: the v1 `projects/{id}/members/` list (a bare array, `MemberService.projectMembers`).
   */
  activeMembersByName(projectId: string): Promise<ProjectMember[]> {
    return this.projects.activeMembersByName(projectId);
  }

  /**
   * `userId`'s active memberships of the workspace's live projects (entities with `member` and
   * `project`), oldest first: Plane's `project_details` of `users/last-visited-workspace/`.
   */
  activeMembershipsOfUser(workspaceId: string, userId: string): Promise<ProjectMember[]> {
    return this.projects.activeMembershipsOfUser(this.dataSource.manager, workspaceId, userId);
  }

  /**
   * Lowers to `role` every live project membership of `memberId` in the workspace whose role is above
   * it (Plane: a demoted workspace member's project roles follow), in the caller's transaction.
   */
  lowerRolesInWorkspace(
    workspaceId: string,
    memberId: string,
    role: number,
    actorId: string,
    em: EntityManager,
  ): Promise<void> {
    return this.projects.lowerRolesAbove(em, workspaceId, memberId, role, actorId);
  }

  /** Deactivates every project membership of `userId` in the workspace (removal, leaving), in the caller's transaction. */
  deactivateAllInWorkspace(workspaceId: string, userId: string, actorId: string, em: EntityManager): Promise<void> {
    return this.projects.deactivateMembershipsInWorkspace(em, workspaceId, userId, actorId);
  }

  // ---- searches, for the rooms above (search)

  /**
   * The project's members to mention: active ones above Guest, and `issueCreatorId` (the creator
   * of the work item being edited) whatever the role; not bots; newest membership first, at most
   * `limit`, `q` (when given) in the first, last or display name: `{member__avatar_url,
   * member__display_name, member__id}` rows. With `batch`, its statement goes in it (the search
   * room's `ReadBatch`).
   */
  mentionableMembers(
    projectId: string,
    issueCreatorId: string | null | undefined,
    q: string,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    return this.projects.mentionableMembers(projectId, issueCreatorId, q, limit, batch);
  }
}

/** Plane: a workspace Admin must be a project Admin; a workspace Guest can only be a project Guest. */
function roleProblem(workspaceRole: number, projectRole: number): string | null {
  if (workspaceRole === ROLE.ADMIN && projectRole !== ROLE.ADMIN)
    return 'A workspace Admin can only be a project Admin.';
  if (workspaceRole === ROLE.GUEST && projectRole !== ROLE.GUEST)
    return 'A workspace Guest can only be a project Guest.';
  return null;
}
