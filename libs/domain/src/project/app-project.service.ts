import { MeridianError, Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In } from 'typeorm';
import { NETWORK, Project } from './project.entity';
import { ProjectMember } from './project-member.entity';
import { Actor, ProjectJson, ProjectService } from './project.service';
import { projectView } from './project.view';

/**
 * Projects as the App API manages them (Plane `plane/app/views/project/`):
 * Plane's list visibility, retrieve, archive, identifier check and joining. Creation, update and
 * deletion are `ProjectService`'s, shared with the External API.
 */
@Injectable()
export class AppProjectService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectService,
  ) {}

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
    const extras = await this.projects.extras(result.results.map((p) => p.id), actor.userId, true);
    return result.map((p) => projectView(p, extras.get(p.id)!));
  }

  /** One project; an archived one is a 404 `PROJECT_NOT_FOUND` as in Plane (unarchive it first). */
  async get(workspaceId: string, projectId: string, userId: string): Promise<ProjectJson> {
    const project = await this.find(this.dataSource.manager, workspaceId, projectId);
    if (project.archivedAt) throw new MeridianError('PROJECT_NOT_FOUND');
    return this.render(project, userId);
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

  private async find(em: EntityManager, workspaceId: string, projectId: string): Promise<Project> {
    const project = await em.getRepository(Project).findOneBy({ id: projectId, workspaceId });
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    return project;
  }

  private async render(project: Project, userId: string): Promise<ProjectJson> {
    return projectView(project, (await this.projects.extras([project.id], userId, true)).get(project.id)!);
  }
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
