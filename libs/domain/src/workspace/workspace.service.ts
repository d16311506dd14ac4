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
   * Whether `userId` is an active member of the live workspace `workspaceId`: for the rooms above
   * (the pre-v2 asset routes answer 404 `WORKSPACE_NOT_FOUND` otherwise).
   */
  isActiveMember(workspaceId: string, userId: string): Promise<boolean> {
    return this.workspaces.isActiveMember(workspaceId, userId);
  }

  /**
   * The workspace's `logo` URL (null when unset, or when the workspace is deleted or gone), in the
   * caller's transaction when `em` is given: for the rooms above (an uploaded logo replaces it).
   */
  logo(id: string, em: EntityManager = this.dataSource.manager): Promise<string | null> {
    return this.workspaces.logo(em, id);
  }

  /**
   * Sets the workspace's `logo` to `url` (null clears it); with `onlyIf`, only while it still holds
   * that URL (a deleted upload clears the logo only if it is still the logo). In the caller's
   * transaction when `em` is given.
   */
  setLogo(id: string, url: string | null, onlyIf?: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    return this.workspaces.setLogo(em, id, url, onlyIf);
  }
}
