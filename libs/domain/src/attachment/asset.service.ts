import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { assertProjectWritable } from '../kernel/project-writable';
import { AttachmentRepository } from './attachment.repository';
import { AttachmentService } from './attachment.service';
import {
  AssetCore,
  CreateAssetInput,
  hex,
  ImageSlot,
  PROJECT_TYPES,
  ProjectAssetScope,
  USER_TYPES,
  WORKSPACE_TYPES,
  WorkspaceAssetScope,
} from './asset-core';
import { assetUrl, DESCRIPTION_ENTITY_TYPES, STATIC_ENTITY_TYPES } from './asset.view';
import { FileAsset, FileAttributes } from './file-asset.entity';

/**
 * The web app's uploads other than work item attachments (Plane 0.25.3 `plane/app/views/asset/v2.py`:
 * `UserAssetsV2Endpoint`, `WorkspaceFileAssetEndpoint`, `ProjectAssetEndpoint`,
 * `ProjectBulkAssetEndpoint`, `AssetRestoreEndpoint`, `StaticFileAssetEndpoint`; and the legacy
 * `plane/app/views/asset/base.py`, in `LegacyAssetService`; a published board's visitors' images in
 * `BoardAssetService`; what they share in `AssetCore`). The presigned flow: `create` records the asset and answers
 * `{upload_data: {url, method: 'POST', fields}, asset_id, asset_url}`; the client posts the file as a
 * multipart form to `upload_data.url`; `complete` (PATCH) checks the object is stored and marks the
 * asset uploaded, and for an avatar, cover or logo puts its `asset_url` into the user's, project's or
 * workspace's image (the previous uploaded image is soft-deleted); reads answer a signed URL (302).
 *
 * Errors: an asset, project, work item or comment outside the route's scope → 404 NOT_FOUND; an entity
 * type the route does not take → 400 INVALID_ENTITY_TYPE; a type other than JPEG, PNG, WebP or GIF →
 * 400 ATTACHMENT_TYPE_NOT_ALLOWED; over `FILE_SIZE_LIMIT` → 413 ATTACHMENT_TOO_LARGE (Plane clamps);
 * completing before the file is stored → 400 ATTACHMENT_NOT_UPLOADED; reading one not uploaded → 404;
 * a workspace logo by a non-Admin, a project cover by someone who is neither project nor workspace
 * Admin → 403 PERMISSION_DENIED.
 */
@Injectable()
export class AssetService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly files: AttachmentService,
    private readonly repo: AttachmentRepository,
    private readonly core: AssetCore,
  ) {}

  // ---- user assets (`/api/assets/v2/user-assets/`) ------------------------------------------

  /** An avatar or cover image of the caller: 200 `{upload_data, asset_id, asset_url}`. */
  async createUserAsset(userId: string, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.core.checkImage(input, USER_TYPES);
    return this.core.created(await this.core.insertUserAsset(userId, input, type, name), null);
  }

  /** 204: marks the caller's asset uploaded; it becomes their avatar or cover image. */
  async completeUserAsset(userId: string, assetId: string, attributes?: Partial<FileAttributes>): Promise<void> {
    await this.core.complete(assetId, { userId }, userId, attributes, async (em, a) => {
      const slot: ImageSlot = a.entityType === 'USER_AVATAR' ? 'user.avatar' : 'user.coverImage';
      await this.core.putImage(em, slot, userId, a, userId, { userId });
    });
  }

  /** 204: soft-deletes the caller's asset; their avatar or cover image is cleared if it was this one. */
  async deleteUserAsset(userId: string, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.core.found(em, assetId, { userId });
      await this.repo.softDelete(em, [a.id], userId);
      const slot: ImageSlot = a.entityType === 'USER_AVATAR' ? 'user.avatar' : 'user.coverImage';
      await this.core.setImage(em, slot, userId, null, assetUrl(a, null) ?? undefined);
    });
  }

  // ---- workspace assets (`/api/assets/v2/workspaces/{slug}/`) --------------------------------

  /** A workspace logo, project cover or an image outside any project: 200 `{upload_data, asset_id, asset_url}`. */
  async createWorkspaceAsset(scope: WorkspaceAssetScope, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.core.checkImage(input, WORKSPACE_TYPES);
    return this.core.created(await this.core.insertWorkspaceAsset(scope, input, type, name), scope.slug);
  }

  /** 204: marks the workspace's asset uploaded; a logo or project cover is put in place. */
  async completeWorkspaceAsset(
    scope: WorkspaceAssetScope,
    assetId: string,
    attributes?: Partial<FileAttributes>,
  ): Promise<void> {
    const ws = { workspaceId: scope.workspaceId };
    await this.core.complete(assetId, ws, scope.userId, attributes, async (em, a) => {
      await this.core.assertMayChange(em, scope, a);
      if (a.entityType === 'WORKSPACE_LOGO')
        await this.core.putImage(em, 'workspace.logo', scope.workspaceId, a, scope.userId, ws);
      else if (a.entityType === 'PROJECT_COVER' && a.projectId)
        await this.core.putImage(em, 'project.coverImage', a.projectId, a, scope.userId, {
          ...ws,
          projectId: a.projectId,
        });
    });
  }

  /** 204: soft-deletes the workspace's asset (its file stays, for restore); a logo or cover that was this one is cleared. */
  async deleteWorkspaceAsset(scope: WorkspaceAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.core.found(em, assetId, { workspaceId: scope.workspaceId });
      await this.core.assertMayChange(em, scope, a);
      await this.repo.softDelete(em, [a.id], scope.userId);
      const url = assetUrl(a, scope.slug) ?? undefined;
      if (a.entityType === 'WORKSPACE_LOGO')
        await this.core.setImage(em, 'workspace.logo', scope.workspaceId, null, url);
      else if (a.entityType === 'PROJECT_COVER' && a.projectId)
        await this.core.setImage(em, 'project.coverImage', a.projectId, null, url);
    });
  }

  /** A signed read URL of an uploaded asset of the workspace (the route answers 302); else 404. */
  async workspaceReadUrl(scope: WorkspaceAssetScope, assetId: string): Promise<string> {
    const a = await this.core.found(this.repo.manager, assetId, { workspaceId: scope.workspaceId });
    if (!a.isUploaded) throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
    return this.files.readUrl(a);
  }

  /** 204: un-deletes an asset of the workspace (an editor's undo). */
  async restoreWorkspaceAsset(scope: WorkspaceAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.core.found(em, assetId, { workspaceId: scope.workspaceId, withDeleted: true });
      await this.repo.restore(em, [a.id]);
    });
  }

  /** The signed read URL of an uploaded avatar, cover or logo, for anyone who has its id; else 404. */
  async staticReadUrl(assetId: string): Promise<string> {
    const a = await this.repo.findAsset(this.repo.manager, assetId, {});
    if (!a || !a.isUploaded || !STATIC_ENTITY_TYPES.includes(a.entityType))
      throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
    return this.files.readUrl(a);
  }

  // ---- project assets (`/api/assets/v2/workspaces/{slug}/projects/{project_id}/`) ----------

  /** An image in a description of the project (or its cover): 200 `{upload_data, asset_id, asset_url}`. */
  async createProjectAsset(scope: ProjectAssetScope, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.core.checkImage(input, PROJECT_TYPES);
    const id = (input.entity_identifier ?? '').trim() || null;
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const link = await this.core.link(em, scope, input.entity_type, id);
      const asset = await this.repo.insert(
        em,
        em.create(FileAsset, {
          ...this.core.row(input, type, `${scope.workspaceId}/${hex()}-${name}`, scope.userId),
          workspaceId: scope.workspaceId,
          projectId: scope.projectId,
          userId: scope.userId,
          ...link,
        }),
      );
      return this.core.created(asset, scope.slug);
    });
  }

  /** 204: marks the project's asset uploaded. */
  async completeProjectAsset(
    scope: ProjectAssetScope,
    assetId: string,
    attributes?: Partial<FileAttributes>,
  ): Promise<void> {
    await this.core.complete(
      assetId,
      { workspaceId: scope.workspaceId, projectId: scope.projectId },
      scope.userId,
      attributes,
    );
  }

  /** 204: soft-deletes the project's asset (its file stays, for restore). */
  async deleteProjectAsset(scope: ProjectAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.core.found(em, assetId, { workspaceId: scope.workspaceId, projectId: scope.projectId });
      await this.repo.softDelete(em, [a.id], scope.userId);
    });
  }

  /** A signed read URL of an uploaded asset of the project (the route answers 302); else 404. */
  async projectReadUrl(scope: ProjectAssetScope, assetId: string): Promise<string> {
    const a = await this.core.found(this.repo.manager, assetId, {
      workspaceId: scope.workspaceId,
      projectId: scope.projectId,
    });
    if (!a.isUploaded) throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
    return this.files.readUrl(a);
  }

  /**
   * 204: links assets uploaded before their entity existed (a new work item's, comment's or
   * project's images) to `entityId`: a work item or comment of the project, or the project itself
   * for a cover (then its cover image). Assets of the workspace in another project are not found.
   */
  async bulkLink(scope: ProjectAssetScope, entityId: string, assetIds: string[]): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const assets = await this.repo.findForProject(em, scope.workspaceId, scope.projectId, assetIds);
      if (assets.length === 0) throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
      const byType = new Map<string, FileAsset[]>();
      for (const a of assets) byType.set(a.entityType, [...(byType.get(a.entityType) ?? []), a]);
      for (const [type, group] of byType) {
        const ids = group.map((a) => a.id);
        if (type === 'PROJECT_COVER') {
          await this.core.assertCoverEditor(em, scope, scope.projectId);
          await this.repo.update(em, ids, { projectId: scope.projectId, entityIdentifier: scope.projectId });
          const cover = group.find((a) => a.isUploaded);
          if (cover)
            await this.core.putImage(em, 'project.coverImage', scope.projectId, cover, scope.userId, {
              workspaceId: scope.workspaceId,
              projectId: scope.projectId,
            });
        } else if (DESCRIPTION_ENTITY_TYPES.includes(type) || type === 'ISSUE_ATTACHMENT') {
          const link = await this.core.link(em, scope, type, entityId);
          await this.repo.update(em, ids, { projectId: scope.projectId, ...link });
        }
      }
    });
  }
}
