import { MeridianError, Page, PageRequest, paginate, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, IsNull } from 'typeorm';
import { isUniqueViolation } from '../shared/db-errors';
import { isTimezone } from '../shared/timezone';
import { WorkspaceMember } from '../workspace/workspace-member.entity';
import { NETWORK, Project } from './project.entity';
import { ProjectMember } from './project-member.entity';
import type { Actor, CreateProjectInput, ProjectJson } from './project.service';
import { ProjectExtras, projectView } from './project.view';

/** Writable fields on update: those of create, all optional (Plane's PATCH). */
export type UpdateProjectInput = Partial<CreateProjectInput>;

/**
 * Projects as the App API manages them (reference plane-app-auth-instance-public.md §1.5–1.6):
 * Plane's list visibility, retrieve, update, soft delete, archive, identifier check and joining.
 * Creation is `ProjectService.create`, shared with the External API.
 */
@Injectable()
export class AppProjectService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Projects of the workspace the caller may list, archived ones included, oldest first (Plane):
   * workspace Admins all of them; Members those they belong to and every public one; Guests only
   * those they belong to.
   */
  async list(workspaceId: string, actor: Actor, page: PageRequest): Promise<Page<ProjectJson>> {
    const qb = this.dataSource.getRepository(Project).createQueryBuilder('p').where('p.workspaceId = :workspaceId', { workspaceId });
    if (actor.workspaceRole < ROLE.ADMIN) {
      const member = `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = :userId
        AND pm.is_active = true AND pm.deleted_at IS NULL)`;
      qb.andWhere(
        new Brackets((w) => {
          w.where(member, { userId: actor.userId });
          if (actor.workspaceRole >= ROLE.MEMBER) w.orWhere('p.network = :public', { public: NETWORK.PUBLIC });
        }),
      );
    }
    const result = await paginate(qb, page);
    const extras = await this.extras(result.results.map((p) => p.id), actor.userId);
    return result.map((p) => projectView(p, extras.get(p.id)!));
  }

  /** One project; an archived one is a 404 `PROJECT_NOT_FOUND` as in Plane (unarchive it first). */
  async get(workspaceId: string, projectId: string, userId: string): Promise<ProjectJson> {
    const project = await this.find(this.dataSource.manager, workspaceId, projectId);
    if (project.archivedAt) throw new MeridianError('PROJECT_NOT_FOUND');
    return this.render(project, userId);
  }

  /**
   * Partial update. 400 `PROJECT_ARCHIVED` on an archived project; 409 `PROJECT_IDENTIFIER_TAKEN` /
   * `PROJECT_NAME_TAKEN`; 422 for a lead or default assignee who is not a workspace member, a blank
   * name or identifier, or an unknown time zone.
   */
  async update(workspaceId: string, projectId: string, userId: string, input: UpdateProjectInput): Promise<ProjectJson> {
    const errors: Record<string, string[]> = {};
    const identifier = input.identifier?.trim().toUpperCase();
    const name = input.name?.trim();
    if (identifier !== undefined && !identifier) errors.identifier = ['This field may not be blank.'];
    else if (identifier && identifier.length > 12) errors.identifier = ['Ensure this field has no more than 12 characters.'];
    if (name !== undefined && !name) errors.name = ['This field may not be blank.'];
    if (input.timezone !== undefined && !isTimezone(input.timezone)) errors.timezone = ['Not a valid time zone.'];
    if (Object.keys(errors).length) throw validationError(errors);
    try {
      await this.dataSource.transaction(async (em) => {
        const project = await this.find(em, workspaceId, projectId);
        if (project.archivedAt) throw new MeridianError('PROJECT_ARCHIVED');
        await assertWorkspaceMembers(em, workspaceId, { project_lead: input.project_lead, default_assignee: input.default_assignee });
        const patch: Partial<Project> = { updatedById: userId };
        if (name !== undefined) patch.name = name;
        if (identifier !== undefined) patch.identifier = identifier;
        const map: Array<[keyof UpdateProjectInput, keyof Project]> = [
          ['description', 'description'], ['network', 'network'], ['project_lead', 'projectLeadId'],
          ['default_assignee', 'defaultAssigneeId'], ['emoji', 'emoji'], ['icon_prop', 'iconProp'],
          ['logo_props', 'logoProps'], ['cover_image', 'coverImage'], ['module_view', 'moduleView'],
          ['cycle_view', 'cycleView'], ['issue_views_view', 'issueViewsView'], ['page_view', 'pageView'],
          ['intake_view', 'intakeView'], ['is_time_tracking_enabled', 'isTimeTrackingEnabled'],
          ['guest_view_all_features', 'guestViewAllFeatures'], ['archive_in', 'archiveIn'], ['close_in', 'closeIn'],
          ['timezone', 'timezone'],
        ];
        for (const [from, to] of map) if (input[from] !== undefined) (patch as Record<string, unknown>)[to] = input[from];
        await em.update(Project, { id: projectId }, patch as never);
        if (input.project_lead) await this.ensureAdmin(em, project, input.project_lead, userId);
      });
    } catch (err) {
      if (isUniqueViolation(err, 'uq_projects_identifier_live')) throw new MeridianError('PROJECT_IDENTIFIER_TAKEN');
      if (isUniqueViolation(err, 'uq_projects_name_live')) throw new MeridianError('PROJECT_NAME_TAKEN');
      throw err;
    }
    return this.render(await this.find(this.dataSource.manager, workspaceId, projectId), userId);
  }

  /** Soft delete: the project and its memberships get `deleted_at`; its identifier and name are free again. */
  async remove(workspaceId: string, projectId: string, userId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.find(em, workspaceId, projectId);
      const now = new Date();
      await em.update(Project, { id: projectId }, { deletedAt: now, updatedById: userId });
      await em.update(ProjectMember, { projectId, deletedAt: IsNull() }, { deletedAt: now, isActive: false });
    });
  }

  /** Archives the project: `{archived_at}`; archiving an archived project keeps its first date. */
  async archive(workspaceId: string, projectId: string, userId: string): Promise<{ archived_at: string }> {
    const project = await this.find(this.dataSource.manager, workspaceId, projectId);
    const archivedAt = project.archivedAt ?? new Date();
    if (!project.archivedAt) await this.dataSource.getRepository(Project).update({ id: projectId }, { archivedAt, updatedById: userId });
    return { archived_at: archivedAt.toISOString() };
  }

  async unarchive(workspaceId: string, projectId: string, userId: string): Promise<void> {
    await this.find(this.dataSource.manager, workspaceId, projectId);
    await this.dataSource.getRepository(Project).update({ id: projectId }, { archivedAt: null, updatedById: userId });
  }

  /**
   * `GET /project-identifiers/?name=`: whether a live project of the workspace uses the identifier
   * (trimmed, upper-cased): `{exists: <count>, identifiers: [{id, name, project}]}`.
   */
  async identifierCheck(workspaceId: string, name: string): Promise<{ exists: number; identifiers: Array<{ id: string; name: string; project: string }> }> {
    const identifier = name.trim().toUpperCase();
    const rows = await this.dataSource.getRepository(Project).find({ select: { id: true, identifier: true }, where: { workspaceId, identifier } });
    return { exists: rows.length, identifiers: rows.map((p) => ({ id: p.id, name: p.identifier, project: p.id })) };
  }

  /**
   * Joins projects (Plane's `POST /users/me/workspaces/{slug}/projects/invitations/`): the caller
   * becomes an active member of each with their workspace role. Only public projects can be joined,
   * except by workspace Admins; an id that is not a joinable live project of the workspace is a 404
   * `PROJECT_NOT_FOUND` and nothing is joined.
   */
  async join(workspaceId: string, actor: Actor, projectIds: string[]): Promise<{ message: string }> {
    const ids = [...new Set(projectIds.map((id) => id.toLowerCase()))];
    await this.dataSource.transaction(async (em) => {
      const where = actor.workspaceRole >= ROLE.ADMIN ? { workspaceId, id: In(ids) } : { workspaceId, id: In(ids), network: NETWORK.PUBLIC };
      const projects = await em.getRepository(Project).findBy(where);
      if (projects.length !== ids.length) throw new MeridianError('PROJECT_NOT_FOUND');
      for (const project of projects) await activateProjectMember(em, project, actor.userId, actor.workspaceRole, actor.userId);
    });
    return { message: 'Projects joined successfully' };
  }

  private async ensureAdmin(em: EntityManager, project: Project, memberId: string, actorId: string) {
    await activateProjectMember(em, project, memberId, ROLE.ADMIN, actorId, true);
  }

  private async find(em: EntityManager, workspaceId: string, projectId: string): Promise<Project> {
    const project = await em.getRepository(Project).findOneBy({ id: projectId, workspaceId });
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    return project;
  }

  private async render(project: Project, userId: string): Promise<ProjectJson> {
    return projectView(project, (await this.extras([project.id], userId)).get(project.id)!);
  }

  /** Member counts and the caller's membership for a set of projects, in one query. */
  private async extras(projectIds: string[], userId: string): Promise<Map<string, ProjectExtras>> {
    const result = new Map<string, ProjectExtras>();
    for (const id of projectIds) {
      result.set(id, { total_members: 0, total_cycles: 0, total_modules: 0, is_member: false, member_role: null, is_deployed: false, sort_order: null });
    }
    if (!projectIds.length) return result;
    const rows = await this.dataSource
      .getRepository(ProjectMember)
      .createQueryBuilder('pm')
      .select('pm.projectId', 'project_id')
      .addSelect('COUNT(*)::int', 'total')
      .addSelect('MAX(CASE WHEN pm.memberId = :userId THEN pm.role END)::int', 'role')
      .addSelect('MIN(CASE WHEN pm.memberId = :userId THEN pm.sortOrder END)', 'sort_order')
      .where('pm.projectId IN (:...projectIds)', { projectIds })
      .andWhere('pm.isActive = true')
      .setParameter('userId', userId)
      .groupBy('pm.projectId')
      .getRawMany<{ project_id: string; total: number; role: number | null; sort_order: number | null }>();
    for (const row of rows) {
      const extras = result.get(row.project_id)!;
      extras.total_members = row.total;
      extras.is_member = row.role !== null;
      extras.member_role = row.role;
      extras.sort_order = row.sort_order === null ? null : Number(row.sort_order);
    }
    return result;
  }
}

/** 422 for each given user id that is not an active member of the workspace. */
export async function assertWorkspaceMembers(em: EntityManager, workspaceId: string, users: Record<string, string | null | undefined>) {
  const ids = Object.values(users).filter((v): v is string => !!v);
  if (!ids.length) return;
  const found = await em.getRepository(WorkspaceMember).find({ select: { memberId: true }, where: { workspaceId, memberId: In(ids), isActive: true } });
  const members = new Set(found.map((m) => m.memberId));
  const errors: Record<string, string[]> = {};
  for (const [field, id] of Object.entries(users)) if (id && !members.has(id)) errors[field] = ['This user is not a member of the workspace.'];
  if (Object.keys(errors).length) throw validationError(errors);
}

/**
 * Makes `memberId` an active member of the project with `role`: reactivates a former membership or
 * creates one (new rows sort before the user's others, as in Plane). An active member keeps their
 * role unless `raise` is set and the role is higher.
 */
export async function activateProjectMember(
  em: EntityManager, project: Project, memberId: string, role: number, actorId: string, raise = false,
): Promise<ProjectMember> {
  const repo = em.getRepository(ProjectMember);
  const existing = await repo.findOneBy({ projectId: project.id, memberId });
  if (existing) {
    if (!existing.isActive) await repo.update({ id: existing.id }, { isActive: true, role, updatedById: actorId });
    else if (raise && existing.role < role) await repo.update({ id: existing.id }, { role, updatedById: actorId });
    return repo.findOneByOrFail({ id: existing.id });
  }
  const min = await repo
    .createQueryBuilder('pm')
    .select('MIN(pm.sortOrder)', 'min')
    .where('pm.workspaceId = :workspaceId AND pm.memberId = :memberId', { workspaceId: project.workspaceId, memberId })
    .getRawOne<{ min: number | null }>();
  const sortOrder = min?.min === null || min?.min === undefined ? 65535 : Number(min.min) - 10000;
  return repo.save(repo.create({ workspaceId: project.workspaceId, projectId: project.id, memberId, role, sortOrder, createdById: actorId, updatedById: actorId }));
}
