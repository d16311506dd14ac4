import { MeridianError, Page, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Project } from './project.entity';
import { ProjectMemberService } from './project-member.service';
import { ProjectRepository } from './project.repository';
import { Actor, ProjectJson, ProjectService } from './project.service';
import { AppProjectJson, appProjectView } from './project.app-view';
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
    private readonly members: ProjectMemberService,
    private readonly repo: ProjectRepository,
  ) {}

  /**
   * Projects of the workspace the caller may list, archived ones included, oldest first (Plane):
   * workspace Admins all of them; Members those they belong to and every public one; Guests only
   * those they belong to.
   */
  async list(workspaceId: string, actor: Actor, page: PageRequest): Promise<Page<AppProjectJson>> {
    const memberOf =
      actor.workspaceRole < ROLE.ADMIN
        ? { userId: actor.userId, orPublic: actor.workspaceRole >= ROLE.MEMBER }
        : undefined;
    const result = await this.repo.listPage(workspaceId, page, memberOf);
    const extras = await this.projects.extras(
      result.results.map((p) => p.id),
      actor.userId,
      true,
    );
    const rendered = result.results.map((p) => projectView(p, extras.get(p.id)!));
    return new Page(
      await this.forApp(rendered, actor.userId),
      result.perPage,
      result.totalCount,
      result.nextCursor,
      result.prevCursor,
    );
  }

  /**
   * Projects in the App API's shape (`appProjectView`): members, deploy board anchor, the
   * caller's `sort_order` and `is_favorite`, one statement for all of them.
   */
  async forApp(projects: ProjectJson[], userId: string): Promise<AppProjectJson[]> {
    const rows = await this.repo.appExtras(
      projects.map((p) => p.id),
      userId,
    );
    const byId = new Map(rows.map((r) => [r.project_id, r]));
    return projects.map((p) => {
      const r = byId.get(p.id);
      return appProjectView(p, {
        members: uuidList(r?.members),
        anchor: r?.anchor ?? null,
        sort_order: r?.sort_order === null || r?.sort_order === undefined ? null : Number(r.sort_order),
        is_favorite: r?.is_favorite === true,
      });
    });
  }

  /** The same projects as `list`, all of them in a plain array by name (`GET /projects/details/`). */
  async listDetails(workspaceId: string, actor: Actor): Promise<ProjectJson[]> {
    const memberOf =
      actor.workspaceRole < ROLE.ADMIN
        ? { userId: actor.userId, orPublic: actor.workspaceRole >= ROLE.MEMBER }
        : undefined;
    const projects = await this.repo.listAll(workspaceId, memberOf);
    const extras = await this.projects.extras(
      projects.map((p) => p.id),
      actor.userId,
      true,
    );
    return projects.map((p) => projectView(p, extras.get(p.id)!));
  }

  /** One project; an archived one is a 404 `PROJECT_NOT_FOUND` as in Plane (unarchive it first). */
  async get(workspaceId: string, projectId: string, userId: string): Promise<AppProjectJson> {
    const project = await this.find(this.repo.manager, workspaceId, projectId);
    if (project.archivedAt) throw new MeridianError('PROJECT_NOT_FOUND');
    return this.render(project, userId);
  }

  /** Archives the project: `{archived_at}`; archiving an archived project keeps its first date. */
  async archive(workspaceId: string, projectId: string, userId: string): Promise<{ archived_at: string }> {
    const project = await this.find(this.repo.manager, workspaceId, projectId);
    const archivedAt = project.archivedAt ?? new Date();
    if (!project.archivedAt) await this.repo.updateProject(null, projectId, { archivedAt, updatedById: userId });
    return { archived_at: archivedAt.toISOString() };
  }

  async unarchive(workspaceId: string, projectId: string, userId: string): Promise<void> {
    await this.find(this.repo.manager, workspaceId, projectId);
    await this.repo.updateProject(null, projectId, { archivedAt: null, updatedById: userId });
  }

  /**
   * `GET /project-identifiers/?name=`: whether a live project of the workspace uses the identifier
   * (trimmed, upper-cased): `{exists: <count>, identifiers: [{id, name, project}]}`.
   */
  async identifierCheck(
    workspaceId: string,
    name: string,
  ): Promise<{ exists: number; identifiers: Array<{ id: string; name: string; project: string }> }> {
    const identifier = name.trim().toUpperCase();
    const rows = await this.repo.findByIdentifier(workspaceId, identifier);
    return { exists: rows.length, identifiers: rows.map((p) => ({ id: p.id, name: p.identifier, project: p.id })) };
  }

  /**
   * Releases an identifier (Plane 0.25.3 `app/views/project/base.py` `ProjectIdentifierEndpoint.delete`):
   * 400 `PROJECT_IDENTIFIER_IN_USE` while a live project of the workspace holds it. Meridian keeps no
   * identifier rows apart from the projects (a deleted project's identifier is free at once), so
   * otherwise there is nothing to release and the answer is a plain success.
   */
  async releaseIdentifier(workspaceId: string, name: string): Promise<void> {
    const identifier = name.trim().toUpperCase();
    const held = await this.repo.identifierHeld(workspaceId, identifier);
    if (held) throw new MeridianError('PROJECT_IDENTIFIER_IN_USE');
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
      const projects = await this.repo.findManyInWorkspace(em, workspaceId, ids, actor.workspaceRole < ROLE.ADMIN);
      if (projects.length !== ids.length) throw new MeridianError('PROJECT_NOT_FOUND');
      for (const project of projects)
        await this.members.activate(em, project, actor.userId, actor.workspaceRole, actor.userId);
    });
    return { message: 'Projects joined successfully' };
  }

  private async find(em: EntityManager, workspaceId: string, projectId: string): Promise<Project> {
    const project = await this.repo.findOne(em, workspaceId, projectId);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    return project;
  }

  private async render(project: Project, userId: string): Promise<AppProjectJson> {
    const json = projectView(project, (await this.projects.extras([project.id], userId, true)).get(project.id)!);
    return (await this.forApp([json], userId))[0];
  }
}

/** A uuid[] column as PGlite or node-postgres returns it (an array, or `{a,b}` text). */
function uuidList(v: unknown): string[] {
  if (Array.isArray(v)) return v as string[];
  if (typeof v === 'string')
    return v
      .replace(/^\{|\}$/g, '')
      .split(',')
      .filter(Boolean);
  return [];
}
