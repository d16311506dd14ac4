import { AuditActor, MeridianError, Page, PageRequest, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { auditActorById, recordAudit } from '../kernel/audit';
import { iso } from '../kernel/time';
import { AppProjectService, ProjectMemberService, projectLiteView, ProjectService } from '../project';
import type { Project } from '../project';
import { UserProfileService } from '../user';
import { activateWorkspaceMember, workspaceLiteView, WorkspaceService } from '../workspace';
import type { Workspace } from '../workspace';
import { MemberRepository } from './member.repository';
import { ProjectInvitation } from './project-invitation.entity';

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * Plane's `ProjectMemberInviteSerializer` (`plane/app/serializers/project.py`, `fields = "__all__"`
 * with `project` and `workspace` as their lite objects) without `token`, which Meridian does not keep.
 */
export function projectInvitationView(inv: ProjectInvitation, project: Project, workspace: Workspace) {
  return {
    id: inv.id,
    project: projectLiteView(project),
    workspace: workspaceLiteView(workspace),
    created_at: iso(inv.createdAt),
    updated_at: iso(inv.updatedAt),
    deleted_at: iso(inv.deletedAt),
    email: inv.email,
    accepted: inv.accepted,
    message: inv.message,
    responded_at: iso(inv.respondedAt),
    role: inv.role,
    created_by: inv.createdById,
    updated_by: inv.updatedById,
  };
}
export type ProjectInvitationJson = ReturnType<typeof projectInvitationView>;

/**
 * What anyone holding an invitation's id reads (`GET …/projects/{project_id}/join/{id}/`, public):
 * what a join screen shows and needs to answer (Plane's web app has no project join screen; its
 * workspace one reads the invitation's `id`, `accepted`, `responded_at` and the workspace's `name`
 * and `slug`): the project's `id`, `identifier`, `name` and `logo_props`, the lite workspace.
 * Not the invitee's `email` (the answer must name it: `POST` checks it), nor the project's
 * `description` and cover, the inviter, the role or the message (docs/decisions.md).
 */
export function projectJoinView(inv: ProjectInvitation, project: Project, workspace: Workspace) {
  return {
    id: inv.id,
    project: { id: project.id, identifier: project.identifier, name: project.name, logo_props: project.logoProps },
    workspace: workspaceLiteView(workspace),
    accepted: inv.accepted,
    responded_at: iso(inv.respondedAt),
  };
}
export type ProjectJoinJson = ReturnType<typeof projectJoinView>;

/** `{emails: [{email, role}], message?}` of `POST …/invitations/`. */
export interface ProjectInviteInput {
  emails: Array<{ email: string; role?: number }>;
  message?: string;
}

/**
 * Invitations to a project (Plane 0.25.3 `plane/app/views/project/invite.py`:
 * ProjectInvitationsViewset, UserProjectInvitationsViewset, ProjectJoinEndpoint). Plane sends no
 * email for them (its task call there is broken), and neither does Meridian: an invitee answers
 * through `join/{id}/` with their email, or joins signed in (`users/me/workspaces/{slug}/projects/invitations/`).
 */
@Injectable()
export class ProjectInvitationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly members: MemberRepository,
    private readonly projectMembers: ProjectMemberService,
    private readonly projects: AppProjectService,
    private readonly projectRows: ProjectService,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserProfileService,
  ) {}

  /**
   * Invites each email with its role (default Guest). An active workspace Guest or Admin must be
   * invited with their workspace role (400 `INVITE_ROLE_MISMATCH`); a listed email twice is a 422;
   * an email with a live invitation to the project keeps that one. 200 `{message}`.
   */
  async invite(
    workspaceId: string,
    projectId: string,
    actorId: string,
    input: ProjectInviteInput,
    actor: AuditActor = auditActorById(actorId),
  ): Promise<{ message: string }> {
    const wanted = new Map<string, number>();
    for (const entry of input.emails) {
      const email = normaliseEmail(entry.email);
      if (wanted.has(email)) throw validationError({ emails: [`${email} is listed more than once.`] });
      wanted.set(email, entry.role ?? ROLE.GUEST);
    }
    if (wanted.size === 0) throw validationError({ emails: ['Emails are required.'] });
    await this.dataSource.transaction(async (em) => {
      const emails = [...wanted.keys()];
      const standing = await this.workspaces.activeRolesByEmail(workspaceId, emails, em);
      for (const [email, role] of wanted) {
        const wsRole = standing.get(email);
        if ((wsRole === ROLE.GUEST || wsRole === ROLE.ADMIN) && wsRole !== role)
          throw new MeridianError('INVITE_ROLE_MISMATCH');
      }
      const existing = await this.members.projectInvitationsTo(em, projectId, emails);
      const taken = new Set(existing.map((i) => i.email));
      const fresh = [...wanted].filter(([email]) => !taken.has(email));
      if (fresh.length) {
        const inserted = await this.members.insertProjectInvitations(
          em,
          fresh.map(([email, role]) => ({
            workspaceId,
            projectId,
            email,
            role,
            message: input.message ?? null,
            createdById: actorId,
            updatedById: actorId,
          })),
        );
        for (const [n, [email, role]] of fresh.entries())
          await recordAudit(em, {
            event: 'member.invited',
            actor,
            workspaceId,
            projectId,
            target: { type: 'project_invitation', id: (inserted.identifiers[n] as { id: string }).id },
            metadata: { email, role },
          });
      }
    });
    return { message: 'Email sent successfully' };
  }

  /** The project's live invitations, newest first (Plane's `ordering = ("-created_at",)`). */
  async list(workspaceId: string, projectId: string, page: PageRequest): Promise<Page<ProjectInvitationJson>> {
    const rows = await this.members.projectInvitationsPage(projectId, page);
    const [project, workspace] = await this.parents(projectId, workspaceId);
    return rows.map((i) => projectInvitationView(i, project, workspace));
  }

  /** One of the project's live invitations; 404 otherwise. */
  async get(workspaceId: string, projectId: string, id: string): Promise<ProjectInvitationJson> {
    const inv = await this.find(this.members.manager, workspaceId, projectId, id);
    const [project, workspace] = await this.parents(projectId, workspaceId);
    return projectInvitationView(inv, project, workspace);
  }

  /** Deletes (soft) one of the project's invitations; 404 otherwise. */
  async revoke(workspaceId: string, projectId: string, id: string): Promise<void> {
    const inv = await this.find(this.members.manager, workspaceId, projectId, id);
    await this.members.softDeleteProjectInvitation(inv.id);
  }

  /** The live invitations addressed to `email`, in every workspace, newest first (Plane's `UserProjectInvitationsViewset.list`). */
  async listForEmail(email: string, page: PageRequest): Promise<Page<ProjectInvitationJson>> {
    const rows = await this.members.projectInvitationsForEmailPage(normaliseEmail(email), page);
    const projects = await this.projectRows.liveProjects(rows.results.map((r) => r.projectId));
    const workspaces = await this.workspaces.liveWorkspaces(rows.results.map((r) => r.workspaceId));
    const p = new Map(projects.map((x) => [x.id, x]));
    const w = new Map(workspaces.map((x) => [x.id, x]));
    return rows.map((i) => projectInvitationView(i, p.get(i.projectId)!, w.get(i.workspaceId)!));
  }

  /**
   * `POST users/me/workspaces/{slug}/projects/invitations/` `{project_ids}` (Plane's
   * `UserProjectInvitationsViewset.create`): joins each project with the caller's workspace role.
   * A project the caller holds a pending invitation to may be joined whatever its network, and the
   * invitation is marked accepted; the others follow the project join rule (public projects; Admins: any).
   */
  async joinProjects(
    workspaceId: string,
    actor: { userId: string; email: string; workspaceRole: number },
    projectIds: string[],
  ): Promise<{ message: string }> {
    const ids = [...new Set(projectIds.map((id) => id.toLowerCase()))];
    const invited = await this.members.pendingProjectInvitations(workspaceId, ids, normaliseEmail(actor.email));
    const byInvite = new Set(invited.map((i) => i.projectId));
    const rest = ids.filter((id) => !byInvite.has(id));
    if (rest.length)
      await this.projects.join(workspaceId, { userId: actor.userId, workspaceRole: actor.workspaceRole }, rest);
    if (invited.length)
      await this.dataSource.transaction(async (em) => {
        for (const inv of invited) await this.accept(em, inv, actor.userId, actor.workspaceRole);
      });
    return { message: 'Projects joined successfully' };
  }

  /**
   * `GET …/projects/{project_id}/join/{id}/` (public, as Plane): `projectJoinView` of the invitation
   * (Plane answers its whole serializer, the invitee's email included); 404 `INVITATION_NOT_FOUND` otherwise.
   */
  async getPublic(slug: string, projectId: string, id: string): Promise<ProjectJoinJson> {
    const workspace = await this.workspaces.findLiveBySlug(slug);
    if (!workspace) throw new MeridianError('INVITATION_NOT_FOUND');
    const inv = await this.members.findProjectInvitation(this.members.manager, {
      id,
      projectId,
      workspaceId: workspace.id,
    });
    if (!inv) throw new MeridianError('INVITATION_NOT_FOUND');
    const [project] = await this.parents(projectId, workspace.id);
    return projectJoinView(inv, project, workspace);
  }

  /**
   * `POST …/projects/{project_id}/join/{id}/` `{email, accepted}` (public, Plane's
   * `ProjectJoinEndpoint`): 403 `INVITATION_EMAIL_MISMATCH` unless `email` is the invited one; 400
   * `INVITATION_ALREADY_RESPONDED` the second time; accepted: the account with that email (404
   * `USER_DOES_NOT_EXIST` if none) joins the workspace (Member at most) and the project with the invited role.
   */
  async answer(
    slug: string,
    projectId: string,
    id: string,
    input: { email: string; accepted?: boolean },
  ): Promise<{ message: string }> {
    return this.dataSource.transaction(async (em) => {
      const workspace = await this.workspaces.findLiveBySlug(slug, em);
      if (!workspace) throw new MeridianError('INVITATION_NOT_FOUND');
      const inv = await this.members.findProjectInvitation(em, { id, projectId, workspaceId: workspace.id }, true);
      if (!inv) throw new MeridianError('INVITATION_NOT_FOUND');
      if (!input.email || normaliseEmail(input.email) !== inv.email)
        throw new MeridianError('INVITATION_EMAIL_MISMATCH');
      if (inv.respondedAt) throw new MeridianError('INVITATION_ALREADY_RESPONDED');
      if (!input.accepted) {
        await this.members.updateProjectInvitation(em, inv.id, { accepted: false, respondedAt: new Date() });
        return { message: 'Project Invitation was not accepted' };
      }
      const user = await this.users.userByEmail(inv.email, em);
      if (!user) throw new MeridianError('USER_DOES_NOT_EXIST');
      const member = await this.workspaces.membership(workspace.id, user.id, em);
      const wsRole = member?.isActive ? member.role : Math.min(inv.role, ROLE.MEMBER);
      await activateWorkspaceMember(em, workspace.id, user.id, wsRole, user.id);
      await this.accept(em, inv, user.id, wsRole);
      return { message: 'Project Invitation Accepted' };
    });
  }

  /** Marks the invitation accepted and makes the user an active project member (the invited role, at most their workspace role). */
  private async accept(
    em: EntityManager,
    inv: ProjectInvitation,
    userId: string,
    workspaceRole: number,
  ): Promise<void> {
    const project = await this.projectRows.findLive(inv.projectId, em);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    await this.projectMembers.activate(em, project, userId, Math.min(inv.role, workspaceRole), userId);
    await this.members.updateProjectInvitation(em, inv.id, {
      accepted: true,
      respondedAt: new Date(),
      updatedById: userId,
    });
  }

  private async find(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    id: string,
  ): Promise<ProjectInvitation> {
    const inv = await this.members.findProjectInvitation(em, { id, projectId, workspaceId });
    if (!inv) throw new MeridianError('INVITATION_NOT_FOUND');
    return inv;
  }

  private async parents(projectId: string, workspaceId: string): Promise<[Project, Workspace]> {
    return Promise.all([this.projectRows.liveOrFail(projectId), this.workspaces.liveOrFail(workspaceId)]);
  }
}
