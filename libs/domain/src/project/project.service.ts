import { AuditActor, MeridianError, Page, PageRequest, ProjectAccessResolver, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { assertProjectEstimate } from '../kernel/estimate-checks';
import type { ReadBatch } from '../kernel/hot-query';
import { isUniqueViolation } from '../kernel/db-errors';
import { isTimezone } from '../kernel/timezone';
import { StateService } from '../state';
import { WorkspaceService } from '../workspace';
import { NETWORK, Project } from './project.entity';
import { AutomatedProject, ProjectRepository } from './project.repository';
import { projectView } from './project.view';
import { auditActorById, recordAudit } from '../kernel/audit';
import { emitChange } from '../kernel/change-bus';

/** Writable project fields on create, with Plane's names (`plane/api/serializers/project.py`). */
export interface CreateProjectInput {
  name: string;
  identifier: string;
  description?: string;
  network?: number;
  project_lead?: string | null;
  default_assignee?: string | null;
  emoji?: string | null;
  icon_prop?: unknown;
  logo_props?: Record<string, unknown>;
  cover_image?: string | null;
  module_view?: boolean;
  cycle_view?: boolean;
  issue_views_view?: boolean;
  page_view?: boolean;
  intake_view?: boolean;
  is_time_tracking_enabled?: boolean;
  guest_view_all_features?: boolean;
  archive_in?: number;
  close_in?: number;
  timezone?: string;
  /** the origin of an imported project (no API sets it: Plane 0.25.3's project has no such field) */
  external_source?: string | null;
  external_id?: string | null;
}

/**
 * Writable project fields on PATCH: all of create's, each optional, plus a few more (Plane
 * ProjectAPIEndpoint.patch).
 */
export interface UpdateProjectInput extends Partial<CreateProjectInput> {
  default_state?: string | null;
  /** the project's own estimate (SDK `estimates.linkToProject`), or null */
  estimate?: string | null;
  inbox_view?: boolean;
  description_text?: unknown;
  description_html?: unknown;
}

/** The caller as far as project rules need it. */
export interface Actor {
  userId: string;
  /** the caller's workspace role (20, 15 or 5) */
  workspaceRole: number;
  /** who and from where, for the audit log (default: `userId` without an address) */
  audit?: AuditActor;
}

export type ProjectJson = ReturnType<typeof projectView>;

/** Projects of a workspace: visibility, creation with its default states and memberships. */
@Injectable()
export class ProjectService implements ProjectAccessResolver {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly projects: ProjectRepository,
    private readonly states: StateService,
    private readonly workspaces: WorkspaceService,
  ) {}

  /** `ProjectAccessResolver`: is the live project visible to the user in this workspace, and their active role. */
  async resolve(
    workspaceId: string,
    projectId: string,
    userId: string,
  ): Promise<{ visible: boolean; role: number | null; exists?: boolean }> {
    const row = await this.projects.findAccess(userId, projectId, workspaceId);
    if (!row) return { visible: false, role: null };
    const role = row.role === null ? null : Number(row.role);
    return { visible: role !== null || Number(row.network) === NETWORK.PUBLIC, role, exists: true };
  }

  /**
   * Projects the caller may see, oldest first: those they are an active member of, and public
   * ones (network 2). Plane v1's list rule (`plane/api/views/project.py` ProjectAPIEndpoint).
   */
  async list(workspaceId: string, actor: Actor, page: PageRequest): Promise<Page<ProjectJson>> {
    const result = await this.projects.listPagePublicOrMember(workspaceId, actor.userId, page);
    const extras = await this.extras(
      result.results.map((p) => p.id),
      actor.userId,
      true,
    );
    return result.map((p) => projectView(p, extras.get(p.id)!));
  }

  /**
   * Creates a project with Plane's side effects, in one transaction: the creator (and the lead,
   * if another user) become project Admins, and the five default states are created.
   *
   * Errors: workspace Guests 403 `PERMISSION_DENIED`; an identifier that is empty or longer than
   * 12 characters after trimming, or a lead/default assignee who is not a workspace member, 422;
   * a taken identifier 409 `PROJECT_IDENTIFIER_TAKEN`; a taken name 409 `PROJECT_NAME_TAKEN`.
   */
  async create(workspaceId: string, actor: Actor, input: CreateProjectInput): Promise<ProjectJson> {
    if (actor.workspaceRole < ROLE.MEMBER) throw new MeridianError('PERMISSION_DENIED');
    const identifier = input.identifier.trim().toUpperCase();
    const name = input.name.trim();
    const errors: Record<string, string[]> = {};
    if (!identifier) errors.identifier = ['This field may not be blank.'];
    else if (identifier.length > 12) errors.identifier = ['Ensure this field has no more than 12 characters.'];
    if (!name) errors.name = ['This field may not be blank.'];
    if (Object.keys(errors).length) throw validationError(errors);

    try {
      const project = await this.dataSource.transaction(async (em) => {
        await this.assertWorkspaceMembers(em, workspaceId, {
          project_lead: input.project_lead,
          default_assignee: input.default_assignee,
        });
        const project = await this.projects.insertProject(em, {
          workspaceId,
          name,
          identifier,
          description: input.description ?? '',
          network: input.network ?? NETWORK.PUBLIC,
          projectLeadId: input.project_lead ?? null,
          defaultAssigneeId: input.default_assignee ?? null,
          emoji: input.emoji ?? null,
          iconProp: input.icon_prop ?? null,
          logoProps: input.logo_props ?? {},
          coverImage: input.cover_image ?? null,
          moduleView: input.module_view ?? true,
          cycleView: input.cycle_view ?? true,
          issueViewsView: input.issue_views_view ?? true,
          pageView: input.page_view ?? true,
          intakeView: input.intake_view ?? false,
          isTimeTrackingEnabled: input.is_time_tracking_enabled ?? false,
          guestViewAllFeatures: input.guest_view_all_features ?? false,
          archiveIn: input.archive_in ?? 0,
          closeIn: input.close_in ?? 0,
          timezone: input.timezone ?? 'UTC',
          externalSource: input.external_id ? (input.external_source ?? null) : null,
          externalId: input.external_id ?? null,
          createdById: actor.userId,
          updatedById: actor.userId,
        });
        const admins = [actor.userId];
        if (input.project_lead && input.project_lead !== actor.userId) admins.push(input.project_lead);
        for (const memberId of admins) {
          await this.projects.insertMember(em, {
            workspaceId,
            projectId: project.id,
            memberId,
            role: ROLE.ADMIN,
            sortOrder: await this.nextSortOrder(em, workspaceId, memberId),
            createdById: actor.userId,
            updatedById: actor.userId,
          });
        }
        await this.states.insertDefaults(workspaceId, project.id, actor.userId, em);
        await emitChange(em, 'model.changed', {
          kind: 'project',
          action: 'created',
          row: project,
          actorId: actor.userId,
        });
        return project;
      });
      const extras = await this.extras([project.id], actor.userId, false);
      return projectView(project, extras.get(project.id)!);
    } catch (err) {
      if (isUniqueViolation(err, 'uq_projects_identifier_live')) throw new MeridianError('PROJECT_IDENTIFIER_TAKEN');
      if (isUniqueViolation(err, 'uq_projects_name_live')) throw new MeridianError('PROJECT_NAME_TAKEN');
      if (isUniqueViolation(err, 'uq_projects_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }

  /**
   * One project the caller may see (the access guard has checked visibility), Plane's detail
   * shape (Plane ProjectAPIEndpoint.get; no `sort_order`). 404 `PROJECT_NOT_FOUND` if gone.
   */
  async retrieve(workspaceId: string, projectId: string, userId: string): Promise<ProjectJson> {
    const project = await this.load(this.projects.manager, workspaceId, projectId);
    const extras = await this.extras([project.id], userId, false);
    return projectView(project, extras.get(project.id)!);
  }

  /**
   * Partial update with Plane's rules (`plane/api/views/project.py` ProjectAPIEndpoint.patch): an
   * archived project cannot be changed (400 `PROJECT_ARCHIVED`); a taken identifier or name is 409
   * `PROJECT_IDENTIFIER_TAKEN` / `PROJECT_NAME_TAKEN` (Plane answers 410); a lead or default assignee
   * outside the workspace, or a default state of another project, is 422. A new lead becomes a
   * project Admin, as on create. Shared by the App API and the External API.
   */
  async update(workspaceId: string, projectId: string, actor: Actor, input: UpdateProjectInput): Promise<ProjectJson> {
    try {
      await this.dataSource.transaction(async (em) => {
        const project = await this.load(em, workspaceId, projectId, true);
        if (project.archivedAt) throw new MeridianError('PROJECT_ARCHIVED');
        await emitChange(em, 'model.changed', {
          kind: 'project',
          action: 'updated',
          row: project,
          actorId: actor.userId,
        });
        const errors: Record<string, string[]> = {};
        if (input.name !== undefined && !input.name.trim()) errors.name = ['This field may not be blank.'];
        const identifier = input.identifier?.trim().toUpperCase();
        if (input.identifier !== undefined && !identifier) errors.identifier = ['This field may not be blank.'];
        else if (identifier && identifier.length > 12)
          errors.identifier = ['Ensure this field has no more than 12 characters.'];
        if (input.timezone !== undefined && !isTimezone(input.timezone)) errors.timezone = ['Not a valid time zone.'];
        if (Object.keys(errors).length) throw validationError(errors);
        await this.assertWorkspaceMembers(em, workspaceId, {
          project_lead: input.project_lead,
          default_assignee: input.default_assignee,
        });
        if (input.default_state) {
          if (!(await this.states.stateInProject(projectId, input.default_state, em)))
            throw validationError({ default_state: ['This state does not belong to the project.'] });
        }
        if (input.estimate) await assertProjectEstimate(em, projectId, input.estimate);
        const patch: Partial<Project> = { updatedById: actor.userId };
        if (input.estimate !== undefined) patch.estimateId = input.estimate;
        const map: Array<[keyof UpdateProjectInput, keyof Project]> = [
          ['description', 'description'],
          ['network', 'network'],
          ['project_lead', 'projectLeadId'],
          ['default_assignee', 'defaultAssigneeId'],
          ['emoji', 'emoji'],
          ['icon_prop', 'iconProp'],
          ['logo_props', 'logoProps'],
          ['cover_image', 'coverImage'],
          ['module_view', 'moduleView'],
          ['cycle_view', 'cycleView'],
          ['issue_views_view', 'issueViewsView'],
          ['page_view', 'pageView'],
          ['intake_view', 'intakeView'],
          ['is_time_tracking_enabled', 'isTimeTrackingEnabled'],
          ['guest_view_all_features', 'guestViewAllFeatures'],
          ['archive_in', 'archiveIn'],
          ['close_in', 'closeIn'],
          ['timezone', 'timezone'],
          ['default_state', 'defaultStateId'],
          ['description_text', 'descriptionText'],
          ['description_html', 'descriptionHtml'],
        ];
        for (const [from, to] of map) {
          if (input[from] !== undefined) (patch as Record<string, unknown>)[to] = input[from];
        }
        if (input.inbox_view !== undefined && input.intake_view === undefined) patch.intakeView = input.inbox_view;
        if (input.name !== undefined) patch.name = input.name.trim();
        if (identifier !== undefined) patch.identifier = identifier;
        await this.projects.updateProject(em, projectId, patch);
        if (input.project_lead) {
          const existing = await this.projects.findMember(em, { projectId, memberId: input.project_lead });
          if (!existing) {
            await this.projects.insertMember(em, {
              workspaceId,
              projectId,
              memberId: input.project_lead,
              role: ROLE.ADMIN,
              sortOrder: await this.nextSortOrder(em, workspaceId, input.project_lead),
              createdById: actor.userId,
              updatedById: actor.userId,
            });
          } else if (existing.role !== ROLE.ADMIN || !existing.isActive) {
            await this.projects.updateMember(em, existing.id, {
              role: ROLE.ADMIN,
              isActive: true,
              updatedById: actor.userId,
            });
          }
        }
      });
    } catch (err) {
      if (isUniqueViolation(err, 'uq_projects_identifier_live')) throw new MeridianError('PROJECT_IDENTIFIER_TAKEN');
      if (isUniqueViolation(err, 'uq_projects_name_live')) throw new MeridianError('PROJECT_NAME_TAKEN');
      throw err;
    }
    return this.retrieve(workspaceId, projectId, actor.userId);
  }

  /**
   * Soft-deletes the project and its memberships (Plane ProjectAPIEndpoint.delete); its
   * identifier and name become free again, and everything in it becomes unreachable (every route
   * checks the project). Shared by the App API and the External API.
   */
  async remove(workspaceId: string, projectId: string, actor: Actor): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const project = await this.load(em, workspaceId, projectId, true);
      await emitChange(em, 'model.changed', {
        kind: 'project',
        action: 'deleted',
        row: project,
        actorId: actor.userId,
      });
      await recordAudit(em, {
        event: 'project.deleted',
        actor: actor.audit ?? auditActorById(actor.userId),
        workspaceId,
        projectId,
        target: { type: 'project', id: projectId },
        metadata: { identifier: project.identifier, name: project.name },
      });
      await this.projects.softDelete(em, projectId, actor.userId, new Date());
    });
  }

  /** Archive (`archived_at` = now) or unarchive (null); Plane answers both with 204 and no state check. */
  async setArchived(workspaceId: string, projectId: string, actor: Actor, archived: boolean): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const project = await this.load(em, workspaceId, projectId, true);
      await emitChange(em, 'model.changed', {
        kind: 'project',
        action: 'updated',
        row: project,
        actorId: actor.userId,
      });
      await this.projects.updateProject(em, projectId, {
        updatedById: actor.userId,
        archivedAt: archived ? new Date() : null,
      });
    });
  }

  /** The live project, or 404 `PROJECT_NOT_FOUND`; `lock` takes a row lock for the transaction. */
  private async load(em: EntityManager, workspaceId: string, projectId: string, lock = false): Promise<Project> {
    const project = await this.projects.findInWorkspace(em, workspaceId, projectId, lock);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    return project;
  }

  private async assertWorkspaceMembers(
    em: EntityManager,
    workspaceId: string,
    users: Record<string, string | null | undefined>,
  ) {
    const ids = Object.values(users).filter((v): v is string => !!v);
    if (!ids.length) return;
    const found = await this.workspaces.activeMembersAmong(workspaceId, ids, em);
    const members = new Set(found.map((m) => m.memberId));
    const errors: Record<string, string[]> = {};
    for (const [field, id] of Object.entries(users)) {
      if (id && !members.has(id)) errors[field] = ['This user is not a member of the workspace.'];
    }
    if (Object.keys(errors).length) throw validationError(errors);
  }

  /** Plane: a new membership sorts before the user's others (min − 10000), or 65535 for the first. */
  private async nextSortOrder(em: EntityManager, workspaceId: string, memberId: string): Promise<number> {
    const min = await this.projects.minMemberSortOrder(em, workspaceId, memberId);
    return min === null ? 65535 : min - 10000;
  }

  /** Counts, deploy state and the caller's membership for a set of projects: four queries, whatever the count. */
  async extras(projectIds: string[], userId: string, withSortOrder: boolean) {
    const result = new Map<string, ReturnType<typeof emptyExtras>>();
    for (const id of projectIds) result.set(id, emptyExtras(withSortOrder));
    if (!projectIds.length) return result;
    const members = await this.projects.memberStats(projectIds, userId);
    for (const row of members) {
      const extras = result.get(row.project_id)!;
      extras.total_members = row.total;
      extras.is_member = row.role !== null;
      extras.member_role = row.role;
      if (withSortOrder) extras.sort_order = row.sort_order === null ? null : Number(row.sort_order);
    }
    // is_deployed: the project has a live deploy board (published, see DeployBoardService)
    const boards = await this.projects.withLiveDeployBoard(projectIds);
    for (const row of boards) result.get(row.project_id)!.is_deployed = true;
    // live cycles and modules, archived ones included (Plane's project annotations)
    for (const [table, key] of [
      ['cycles', 'total_cycles'],
      ['modules', 'total_modules'],
    ] as const) {
      const rows = await this.projects.countLive(table, projectIds);
      for (const row of rows) result.get(row.project_id)![key] = Number(row.n);
    }
    return result;
  }

  // ---- reads for the rooms above (the published boards)

  /** The live project `id` (entity, archived or not), or null; in the caller's transaction when `em` is given. */
  findLive(id: string, em?: EntityManager): Promise<Project | null> {
    return this.projects.findLive(em ?? this.dataSource.manager, id);
  }

  /**
   * Whether the live project `id` is archived (false for a deleted or unknown one), in the caller's
   * transaction when `em` is given: the cycles and modules of an archived project answer 404.
   */
  isArchived(id: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.projects.isArchived(em, id);
  }

  /**
   * What the project's v1 representation counts, for `actorId` (`total_members`, `total_cycles`,
   * `total_modules`, `is_member`, `member_role`, `is_deployed`), in one statement in `em`'s
   * transaction: a webhook delivery renders the project as of the change's commit.
   */
  async representationExtras(id: string, actorId: string | null, em: EntityManager = this.dataSource.manager) {
    const c = await this.projects.representationCounts(em, id, actorId);
    return {
      total_members: c.total_members,
      total_cycles: c.total_cycles,
      total_modules: c.total_modules,
      is_member: c.member_role !== null,
      member_role: c.member_role,
      is_deployed: c.is_deployed,
    };
  }

  /** The live, unarchived projects of the workspace among `ids` (entities), by name. */
  unarchivedProjects(workspaceId: string, ids: string[]): Promise<Project[]> {
    return this.projects.unarchivedByIds(workspaceId, [...new Set(ids)]);
  }

  /** The project `id`, deleted or not (entity: its identifier for a notification), or null. */
  findWithDeleted(id: string, em: EntityManager = this.dataSource.manager): Promise<Project | null> {
    return this.projects.findWithDeleted(em, id);
  }

  /**
   * The project's `cover_image` URL (null when unset, or when the project is deleted or gone), in
   * the caller's transaction when `em` is given: for the rooms above (an uploaded cover replaces it).
   */
  coverImage(id: string, em: EntityManager = this.dataSource.manager): Promise<string | null> {
    return this.projects.coverImage(em, id);
  }

  /**
   * Sets the project's `cover_image` to `url` (null clears it); with `onlyIf`, only while it still
   * holds that URL (a deleted upload clears the cover only if it is still the cover). In the
   * caller's transaction when `em` is given.
   */
  setCoverImage(
    id: string,
    url: string | null,
    onlyIf?: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    return this.projects.setCoverImage(em, id, url, onlyIf);
  }

  /** The live projects among `ids` (entities, any workspace, archived or not, in no order): a user's project invitations. */
  liveProjects(ids: string[]): Promise<Project[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.projects.liveByIds([...new Set(ids)]);
  }

  /** The projects among `ids` (entities), deleted ones too, in no order: the history rows a profile lists name them. */
  projectsWithDeleted(ids: string[]): Promise<Project[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.projects.withDeletedByIds([...new Set(ids)]);
  }

  /** The workspace's live, unarchived projects `userId` is an active member of (entities), oldest first. */
  openProjectsOfMember(workspaceId: string, userId: string): Promise<Project[]> {
    return this.projects.openProjectsOfMember(workspaceId, userId);
  }

  /** The live project `id` (entity); throws TypeORM's `EntityNotFoundError` (a 404) when there is none. */
  liveOrFail(id: string, em: EntityManager = this.dataSource.manager): Promise<Project> {
    return this.projects.liveOrFail(em, id);
  }

  /** Soft-deletes the workspace's live projects (`deleted_at` = `now`): a deleted workspace's, in the caller's transaction. */
  softDeleteAllInWorkspace(workspaceId: string, userId: string, now: Date, em: EntityManager): Promise<void> {
    return this.projects.softDeleteAllInWorkspace(em, workspaceId, userId, now);
  }

  /**
   * Live projects (archived ones too) per workspace among `workspaceIds` (ids without projects are
   * absent; none: an empty map): `total_projects` of the instance admins' workspace list.
   */
  liveCountsByWorkspace(workspaceIds: string[]): Promise<Map<string, number>> {
    if (!workspaceIds.length) return Promise.resolve(new Map());
    return this.projects.liveCountsByWorkspace(workspaceIds);
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * `external_id` → id of the workspace's live projects that came from `source` (their
   * `external_source`); those without an `external_id` are left out. `em`: the caller's transaction.
   */
  externalIds(workspaceId: string, source: string, em?: EntityManager): Promise<Map<string, string>> {
    return this.projects.externalIds(workspaceId, source, em);
  }

  // ---- for the rooms above: the daily automation and the exports

  /**
   * A page of the live, unarchived projects of live workspaces whose `archive_in` (`kind`
   * `archive`) or `close_in` (`close`) is above 0, by id after `afterId`, at most `limit`.
   */
  automatedPage(kind: 'archive' | 'close', afterId: string | null, limit: number): Promise<AutomatedProject[]> {
    return this.projects.automatedPage(kind, afterId, limit);
  }

  /** Which of `ids` are live projects of the workspace (archived ones included). */
  liveIdsInWorkspace(workspaceId: string, ids: string[]): Promise<Set<string>> {
    if (!ids.length) return Promise.resolve(new Set());
    return this.projects.liveIdsInWorkspace(workspaceId, [...new Set(ids)]);
  }

  /**
   * The live, unarchived projects of the workspace `userId` is an active member of (ids, by
   * identifier), or, with `projectIds`, those of them, in the order asked (Plane's export filter).
   */
  async openIdsOfMember(workspaceId: string, userId: string, projectIds?: string[]): Promise<string[]> {
    const ids = await this.projects.openIdsOfMember(workspaceId, userId, projectIds ?? null);
    if (!projectIds) return ids;
    const found = new Set(ids);
    return projectIds.filter((id) => found.has(id));
  }

  // ---- searches, for the rooms above (search)

  /**
   * `userId`'s unarchived projects of the workspace whose name or identifier contains `q`, newest
   * first, at most `limit`: `{name, id, identifier, workspace__slug}` rows. With `batch`, its
   * statement goes in it (the search room's `ReadBatch`).
   */
  searchOfMember(workspaceId: string, userId: string, q: string, limit: number, batch?: ReadBatch): Promise<unknown[]> {
    return this.projects.searchOfMember(workspaceId, userId, q, limit, batch);
  }

  /**
   * Projects to mention: the workspace's unarchived projects `userId` is an active member of, and
   * the public ones unless `workspaceRole` is Guest; `q` (when given) in the name or identifier;
   * newest first, at most `limit`: `{name, id, identifier, logo_props, workspace__slug}` rows.
   * With `batch`, its statement goes in it.
   */
  mentionable(
    workspaceId: string,
    userId: string,
    workspaceRole: number,
    q: string,
    limit: number,
    batch?: ReadBatch,
  ): Promise<unknown[]> {
    return this.projects.mentionable(workspaceId, userId, workspaceRole > ROLE.GUEST, q, limit, batch);
  }
}

function emptyExtras(withSortOrder: boolean) {
  return {
    total_members: 0,
    total_cycles: 0,
    total_modules: 0,
    is_member: false,
    member_role: null as number | null,
    is_deployed: false,
    ...(withSortOrder ? { sort_order: null as number | null } : {}),
  };
}
