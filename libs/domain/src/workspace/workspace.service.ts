import { MeridianError, Page, PageRequest, ROLE, validationError, WorkspaceAccessResolver } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InstanceSettings } from '../instance-config';
import { isUniqueViolation } from '../kernel/db-errors';
import { isRestrictedSlug } from './slug-rules';
import {
  findWorkspaceMembership,
  insertWorkspaceMembership,
  updateWorkspaceMembership,
  WorkspaceRepository,
} from './workspace.repository';
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

  // ---- memberships as the auth room's sign-in and deactivation change them; `em` is the
  // caller's transaction, the manager outside any when omitted

  /**
   * The slugs among `slugs` that name no live workspace (an SSO connection's group → role mappings
   * are checked at save with it; 422 is the caller's).
   */
  async unknownSlugs(slugs: string[]): Promise<string[]> {
    if (slugs.length === 0) return [];
    const rows = await this.workspaces.liveBySlugs(this.dataSource.manager, slugs);
    const found = new Set(rows.map((w) => w.slug));
    return slugs.filter((s) => !found.has(s));
  }

  /**
   * Gives `userId` the role in each live workspace of `roles` (slug → role, Admin 20, Member 15,
   * Guest 5; unknown slugs are skipped), as an SSO sign-in's group → role mappings say
   * (docs/sso-oidc.md): creates or reactivates the membership, or changes an active member's role.
   * The workspace's owner keeps theirs. Answers each change made (`oldRole` null when the user was
   * not an active member), for the caller's audit rows.
   */
  async applyMemberRoles(
    userId: string,
    roles: Map<string, number>,
    em: EntityManager = this.dataSource.manager,
  ): Promise<{ workspaceId: string; memberRowId: string; oldRole: number | null; newRole: number }[]> {
    const changes: { workspaceId: string; memberRowId: string; oldRole: number | null; newRole: number }[] = [];
    if (roles.size === 0) return changes;
    for (const ws of await this.workspaces.liveBySlugs(em, [...roles.keys()])) {
      if (ws.ownerId === userId) continue;
      const role = roles.get(ws.slug)!;
      const existing = await findWorkspaceMembership(em, ws.id, userId);
      if (!existing) {
        const memberRowId = await this.workspaces.insertMembershipId(em, {
          workspaceId: ws.id,
          memberId: userId,
          role,
        });
        changes.push({ workspaceId: ws.id, memberRowId, oldRole: null, newRole: role });
      } else if (!existing.isActive || existing.role !== role) {
        await updateWorkspaceMembership(em, existing.id, { isActive: true, role });
        const oldRole = existing.isActive ? existing.role : null;
        changes.push({ workspaceId: ws.id, memberRowId: existing.id, oldRole, newRole: role });
      }
    }
    return changes;
  }

  /** `userId`'s active memberships (row id, workspace, role): a deactivation's `member.removed` audit rows. */
  activeMembershipsOf(
    userId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<{ id: string; workspaceId: string; role: number }[]> {
    return this.workspaces.activeMembershipsOf(em, userId);
  }

  /** Makes `userId`'s active memberships inactive (Plane's `UserEndpoint.deactivate`). */
  async deactivateMembershipsOf(userId: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    await this.workspaces.deactivateMembershipsOf(em, userId);
  }

  /**
   * Whether `userId` is the only active Admin (20) of a workspace that has other active members
   * (Plane's `UserEndpoint.deactivate` refuses them: 400 `DEACTIVATE_ONLY_WORKSPACE_ADMIN` is the caller's).
   */
  isSoleAdminOfAny(userId: string, em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.workspaces.isSoleAdminOfAny(em, userId);
  }
}
