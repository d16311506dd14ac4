import { MeridianError, Page, PageRequest, ROLE, validationError, WorkspaceAccessResolver } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { InstanceSettings } from '../instance-config';
import { isUniqueViolation } from '../kernel/db-errors';
import type { ReadBatch } from '../kernel/hot-query';
import { isRestrictedSlug } from './slug-rules';
import {
  findWorkspaceMembership,
  insertWorkspaceMembership,
  updateWorkspaceMembership,
  WorkspaceRepository,
} from './workspace.repository';
import { workspaceView } from './workspace.view';
import { Workspace } from './workspace.entity';
import { WorkspaceMember } from './workspace-member.entity';

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

  /** The live workspace with this slug (entity), or null; in the caller's transaction when `em` is given. */
  findLiveBySlug(slug: string, em?: EntityManager): Promise<Workspace | null> {
    return this.workspaces.findLiveBySlug(slug, em);
  }

  // ---- memberships and the workspace row, for the rooms above (members, invitations, the importer)

  /**
   * The workspace's active memberships (entities with `member`, the user), by display name then user
   * id: the v1 `members/` list (a bare array, `MemberService.workspaceMembers`).
   */
  activeMembersByName(workspaceId: string): Promise<WorkspaceMember[]> {
    return this.workspaces.activeMembersByName(workspaceId);
  }

  /**
   * A page of the workspace's active memberships (entities with `member` and `workspace`), oldest
   * first (Plane's `WorkSpaceMemberViewSet.list`); `search` matches display, first or last name, and
   * the email when `viewerRole` is Member (15) or above.
   */
  activeMembersPage(
    workspaceId: string,
    page: PageRequest,
    viewerRole: number,
    search?: string,
  ): Promise<Page<WorkspaceMember>> {
    return this.workspaces.activeMembersPage(workspaceId, page, viewerRole, search);
  }

  /** `userId`'s own `view_props` in the workspace (`viewProps` null when never saved); undefined without an active membership. */
  activeViewProps(
    workspaceId: string,
    userId: string,
  ): Promise<{ viewProps: Record<string, unknown> | null } | undefined> {
    return this.workspaces.activeViewProps(workspaceId, userId);
  }

  /** Replaces `userId`'s own `view_props` in the workspace (Plane's `workspace-views/`); false without an active membership. */
  saveViewProps(workspaceId: string, userId: string, viewProps: Record<string, unknown>): Promise<boolean> {
    return this.workspaces.saveViewProps(workspaceId, userId, viewProps);
  }

  /** How many active Admins (20) the workspace has besides `userId`, in the caller's transaction. */
  countOtherActiveAdmins(workspaceId: string, userId: string, em: EntityManager): Promise<number> {
    return this.workspaces.countOtherActiveAdmins(em, workspaceId, userId);
  }

  /**
   * `userId`'s oldest active membership of a live workspace (only in `workspaceId` if given): the
   * workspace's `{id, slug}`, or undefined (Plane's last and fallback workspace of `users/me/settings/`).
   */
  oldestLiveWorkspaceOf(
    userId: string,
    workspaceId?: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<{ id: string; slug: string } | undefined> {
    return this.workspaces.oldestLiveWorkspaceOf(em, userId, workspaceId);
  }

  /** The active workspace roles of the members with these lower-case emails, by lower-case email; in the caller's transaction when `em` is given. */
  activeRolesByEmail(
    workspaceId: string,
    emails: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, number>> {
    return this.workspaces.activeRolesByEmail(em, workspaceId, emails);
  }

  /**
   * The workspace's active membership row with key `where.id` or `where.memberId` (entity, with
   * `member` and `workspace` when `withRelations`), or null; in the caller's transaction when `em` is given.
   */
  findActiveMember(
    where: { workspaceId: string; id?: string; memberId?: string },
    withRelations = true,
    em: EntityManager = this.dataSource.manager,
  ): Promise<WorkspaceMember | null> {
    return this.workspaces.findActiveMember(em, where, withRelations);
  }

  /** `userId`'s membership of the workspace in any state (entity), or null; in the caller's transaction when `em` is given. */
  membership(
    workspaceId: string,
    userId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<WorkspaceMember | null> {
    return findWorkspaceMembership(em, workspaceId, userId);
  }

  /** Sets a membership row's role, in the caller's transaction. */
  setMemberRole(rowId: string, role: number, actorId: string, em: EntityManager): Promise<void> {
    return this.workspaces.setMemberRole(em, rowId, role, actorId);
  }

  /** Deactivates `userId`'s membership of the workspace (`is_active = false`), in the caller's transaction. */
  deactivateMember(workspaceId: string, userId: string, actorId: string, em: EntityManager): Promise<void> {
    return this.workspaces.deactivateMember(em, workspaceId, userId, actorId);
  }

  /** How many active members the workspace has (`total_members`). */
  countActiveMembers(workspaceId: string): Promise<number> {
    return this.workspaces.countActiveMembers(workspaceId);
  }

  /** The live workspace `id` (entity); throws TypeORM's `EntityNotFoundError` (a 404) when there is none. */
  liveOrFail(id: string, em: EntityManager = this.dataSource.manager): Promise<Workspace> {
    return this.workspaces.liveOrFail(em, id);
  }

  /** The live workspaces among `ids` (entities, in no order); in the caller's transaction when `em` is given. */
  liveWorkspaces(ids: string[], em: EntityManager = this.dataSource.manager): Promise<Workspace[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.workspaces.liveByIds(em, [...new Set(ids)]);
  }

  /** The workspaces among `ids` (entities), deleted ones too, in no order: the history rows a profile lists name them. */
  workspacesWithDeleted(ids: string[]): Promise<Workspace[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.workspaces.withDeletedByIds([...new Set(ids)]);
  }

  /** Writes `patch` to the workspace row; a taken slug throws the unique violation `uq_workspaces_slug`. */
  update(id: string, patch: Partial<Workspace>): Promise<void> {
    return this.workspaces.update(id, patch);
  }

  /** Soft-deletes the workspace row (`deleted_at` = `now`), in the caller's transaction. */
  softDelete(id: string, userId: string, now: Date, em: EntityManager): Promise<void> {
    return this.workspaces.softDelete(em, id, userId, now);
  }

  /** Whether any workspace, a deleted one included, holds the slug. */
  slugTaken(slug: string): Promise<boolean> {
    return this.workspaces.slugTaken(slug);
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

  /**
   * The workspace's active memberships (entities) among `userIds` (none: none), in the caller's
   * transaction when `em` is given: who may be added to a project, or lead it, and with which role.
   */
  activeMembersAmong(
    workspaceId: string,
    userIds: string[],
    em: EntityManager = this.dataSource.manager,
  ): Promise<WorkspaceMember[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.workspaces.activeMembersAmong(em, workspaceId, [...new Set(userIds)]);
  }

  /**
   * Whether `userId` is an active member of the live workspace `workspaceId`, in the caller's
   * transaction when `em` is given: for the rooms above (a module's `lead` must be one; the pre-v2
   * asset routes answer 404 `WORKSPACE_NOT_FOUND` otherwise).
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
    return this.workspaces.slugTakenAnyCase(slug);
  }

  /**
   * Whether any live workspace exists (the instance's `workspaces_exist`); in the caller's
   * transaction when `em` is given.
   */
  anyLive(em: EntityManager = this.dataSource.manager): Promise<boolean> {
    return this.workspaces.anyLive(em);
  }

  // ---- searches, for the rooms above (search)

  /**
   * `userId`'s workspaces whose name contains `q`, newest first, at most `limit`: `{name, id, slug}`
   * rows. With `batch`, its statement goes in it (the search room's `ReadBatch`).
   */
  searchOfMember(userId: string, q: string, limit: number, batch?: ReadBatch): Promise<unknown[]> {
    return this.workspaces.searchOfMember(userId, q, limit, batch);
  }

  /**
   * The workspace's active members who are not bots, newest membership first, at most `limit`,
   * `q` (when given) in the first, last or display name: mention rows `{member__avatar_url,
   * member__display_name, member__id}`. With `batch`, its statement goes in it.
   */
  mentionableMembers(workspaceId: string, q: string, limit: number, batch?: ReadBatch): Promise<unknown[]> {
    return this.workspaces.mentionableMembers(workspaceId, q, limit, batch);
  }
}
