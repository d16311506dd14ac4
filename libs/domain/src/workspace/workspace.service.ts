import { MeridianError, Page, PageRequest, ROLE, validationError, WorkspaceAccessResolver } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InstanceSettings } from '../instance-config';
import { isUniqueViolation } from '../kernel/db-errors';
import { isRestrictedSlug } from './slug-rules';
import { insertWorkspaceMembership, WorkspaceRepository } from './workspace.repository';
import { workspaceView } from './workspace.view';
import { Workspace } from './workspace.entity';

export interface CreateWorkspaceInput {
  name: string;
  slug: string;
  organization_size?: string | null;
  timezone?: string;
  company_role?: string | null;
}

export type WorkspaceJson = ReturnType<typeof workspaceView>;

/** Workspaces and the caller's standing in them. */
@Injectable()
export class WorkspaceService implements WorkspaceAccessResolver {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: InstanceSettings,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  /** The live workspaces where `userId` is an active member, oldest first, with the caller's `role`. */
  async listForUser(userId: string, page: PageRequest): Promise<Page<WorkspaceJson>> {
    const result = await this.workspaces.listPageOfMember(userId, page);
    const ids = result.results.map((w) => w.id);
    const stats = ids.length ? await this.workspaces.memberStats(ids, userId) : [];
    const byId = new Map(stats.map((s) => [s.workspace_id, s]));
    return result.map((w) =>
      workspaceView(w, { role: byId.get(w.id)?.role, total_members: byId.get(w.id)?.total_members ?? 0 }),
    );
  }

  /**
   * Creates a workspace and makes the creator its Admin (role 20), in one transaction.
   * A restricted slug is a 422; a slug already used, even by a deleted workspace, is a 409
   * `WORKSPACE_SLUG_TAKEN`; 403 `WORKSPACE_CREATION_DISABLED` while the instance configuration
   * `DISABLE_WORKSPACE_CREATION` is "1" (not for an instance admin, `byInstanceAdmin`: Plane's
   * `InstanceWorkSpaceEndpoint` has no such check).
   */
  async create(userId: string, input: CreateWorkspaceInput, byInstanceAdmin = false): Promise<WorkspaceJson> {
    if (!byInstanceAdmin && (await this.settings.getBool('DISABLE_WORKSPACE_CREATION')))
      throw new MeridianError('WORKSPACE_CREATION_DISABLED');
    if (isRestrictedSlug(input.slug)) throw validationError({ slug: ['Slug is not valid'] });
    try {
      const workspace = await this.dataSource.transaction(async (em) => {
        const created = await this.workspaces.insertWorkspace(em, {
          name: input.name,
          slug: input.slug,
          ownerId: userId,
          organizationSize: input.organization_size ?? null,
          timezone: input.timezone ?? 'UTC',
          createdById: userId,
          updatedById: userId,
        });
        await insertWorkspaceMembership(em, {
          workspaceId: created.id,
          memberId: userId,
          role: ROLE.ADMIN,
          companyRole: input.company_role ?? null,
          createdById: userId,
          updatedById: userId,
        });
        return created;
      });
      return workspaceView(workspace, { role: ROLE.ADMIN, total_members: 1 });
    } catch (err) {
      if (isUniqueViolation(err, 'uq_workspaces_slug')) throw new MeridianError('WORKSPACE_SLUG_TAKEN');
      throw err;
    }
  }

  /** `WorkspaceAccessResolver`: the live workspace with this exact slug and the user's active role in it. */
  async resolve(slug: string, userId: string): Promise<{ workspaceId: string | null; role: number | null }> {
    const row = await this.workspaces.findAccess(userId, slug);
    return { workspaceId: row?.workspace_id ?? null, role: row?.role ?? null };
  }

  // ---- reads for the rooms above (the published boards)

  /** The live workspace `id` (entity), or null; in the caller's transaction when `em` is given. */
  findLive(id: string, em?: EntityManager): Promise<Workspace | null> {
    return this.workspaces.findLive(em ?? this.dataSource.manager, id);
  }

  /** The live workspace with this slug (entity), or null. */
  findLiveBySlug(slug: string): Promise<Workspace | null> {
    return this.workspaces.findLiveBySlug(slug);
  }

  /**
   * Whether `userId` is an active member of the workspace (a module's `lead` must be one); in the
   * caller's transaction when `em` is given.
   */
  isActiveMember(workspaceId: string, userId: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.workspaces.isActiveMember(em, workspaceId, userId);
  }

  // ---- reads for the instance admins (god mode, Plane `plane/license/api/views/workspace.py`)

  /**
   * A page of every live workspace (entities, oldest first, the cursor envelope's order) for
   * `GET /api/instances/workspaces/`; `search` matches the name or slug, case-insensitively.
   */
  instancePage(page: PageRequest, search?: string): Promise<Page<Workspace>> {
    return this.workspaces.pageForInstance(page, search);
  }

  /** Active members per workspace among `ids` (ids without active members are absent; none: an empty map). */
  activeMemberCounts(ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return Promise.resolve(new Map());
    return this.workspaces.activeMemberCounts(ids);
  }

  /** Whether a workspace, even a deleted one, has this slug in any letter case (`workspace-slug-check/`). */
  isSlugTaken(slug: string): Promise<boolean> {
    return this.workspaces.slugTaken(slug);
  }

  /**
   * Whether any live workspace exists (the instance's `workspaces_exist`); in the caller's
   * transaction when `em` is given.
   */
  anyLive(em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.workspaces.anyLive(em);
  }
}
