import { AuditActor, MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { auditActorById, recordAudit } from '../kernel/audit';
import { isUniqueViolation } from '../kernel/db-errors';
import { isTimezone } from '../kernel/timezone';
import { ApiTokenService } from '../api-token';
import { WorkspaceInvitationService } from '../invitation';
import { ProjectService } from '../project';
import { isRestrictedSlug, WORKSPACE_SLUG_PATTERN, WorkspaceService } from '../workspace';
import type { Workspace } from '../workspace';
import { workspaceView } from '../workspace';
import type { WorkspaceJson } from '../workspace';

/** Writable workspace fields (Plane `plane/app/views/workspace/base.py` WorkSpaceViewSet.partial_update). */
export interface UpdateWorkspaceInput {
  name?: string;
  slug?: string;
  logo?: string | null;
  organization_size?: string | null;
  timezone?: string;
}

/**
 * One workspace as the App API manages it: retrieve, update, soft delete, and the slug check.
 * Role checks are declared on the routes (`@WorkspaceRole`); this service enforces the data rules.
 */
@Injectable()
export class WorkspaceSettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly apiTokens: ApiTokenService,
    private readonly invitations: WorkspaceInvitationService,
  ) {}

  /** The workspace with the caller's `role` and `total_members` (active members). */
  async retrieve(workspaceId: string, role: number): Promise<WorkspaceJson> {
    const ws = await this.workspaces.liveOrFail(workspaceId);
    return workspaceView(ws, { role, total_members: await this.totalMembers(workspaceId) });
  }

  /**
   * Partial update. A restricted or malformed slug or an unknown time zone is a 422; a slug held
   * by another workspace (a deleted one included) is a 409 `WORKSPACE_SLUG_TAKEN`.
   */
  async update(workspaceId: string, userId: string, role: number, input: UpdateWorkspaceInput): Promise<WorkspaceJson> {
    const errors: Record<string, string[]> = {};
    if (input.slug !== undefined && (!WORKSPACE_SLUG_PATTERN.test(input.slug) || isRestrictedSlug(input.slug))) {
      errors.slug = ['Slug is not valid'];
    }
    if (input.timezone !== undefined && !isTimezone(input.timezone)) errors.timezone = ['Not a valid time zone.'];
    if (Object.keys(errors).length) throw validationError(errors);
    const patch: Partial<Workspace> = { updatedById: userId };
    if (input.name !== undefined) patch.name = input.name;
    if (input.slug !== undefined) patch.slug = input.slug;
    if (input.logo !== undefined) patch.logo = input.logo;
    if (input.organization_size !== undefined) patch.organizationSize = input.organization_size;
    if (input.timezone !== undefined) patch.timezone = input.timezone;
    try {
      await this.workspaces.update(workspaceId, patch);
    } catch (err) {
      if (isUniqueViolation(err, 'uq_workspaces_slug')) throw new MeridianError('WORKSPACE_SLUG_TAKEN');
      throw err;
    }
    return this.retrieve(workspaceId, role);
  }

  /**
   * Soft delete, in one transaction: the workspace, its projects, its API keys (which stop
   * authenticating at once) and its pending invitations get `deleted_at`. The slug stays reserved:
   * its unique index covers deleted rows.
   */
  async remove(workspaceId: string, userId: string, actor: AuditActor = auditActorById(userId)): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const now = new Date();
      const workspace = await this.workspaces.liveOrFail(workspaceId, em);
      await recordAudit(em, {
        event: 'workspace.deleted',
        actor,
        workspaceId,
        target: { type: 'workspace', id: workspaceId },
        metadata: { slug: workspace.slug, name: workspace.name },
      });
      // in this order: the workspace, its live projects, its live API keys (inactive too), its live invitations
      await this.workspaces.softDelete(workspaceId, userId, now, em);
      await this.projects.softDeleteAllInWorkspace(workspaceId, userId, now, em);
      await this.apiTokens.deleteAllInWorkspace(workspaceId, now, em);
      await this.invitations.deleteAllInWorkspace(workspaceId, now, em);
    });
  }

  /**
   * `GET /api/workspace-slug-check/`: `{status: true}` when a workspace could be created with the
   * slug. Unlike Plane, a slug still held by a deleted workspace is reported as taken (creating it
   * would fail), and a malformed slug as unavailable.
   */
  async slugAvailable(slug: string): Promise<{ status: boolean }> {
    if (!WORKSPACE_SLUG_PATTERN.test(slug) || isRestrictedSlug(slug)) return { status: false };
    const taken = await this.workspaces.slugTaken(slug);
    return { status: !taken };
  }

  private totalMembers(workspaceId: string): Promise<number> {
    return this.workspaces.countActiveMembers(workspaceId);
  }
}
