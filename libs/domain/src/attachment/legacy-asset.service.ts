import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { AttachmentRepository } from './attachment.repository';
import { AttachmentService, mediaType, ReceivedFile } from './attachment.service';
import { AssetCore, CreateAssetInput, USER_TYPES, WORKSPACE_TYPES, WorkspaceAssetScope } from './asset-core';
import { appAttachmentView } from './asset.view';
import { FileAsset } from './file-asset.entity';

/**
 * Plane's pre-v2 asset routes (`plane/app/views/asset/base.py` `UserAssetsEndpoint`,
 * `FileAssetEndpoint`, `FileAssetViewSet`): assets by storage key, the caller's own or a
 * workspace's they are a member of (else 404 WORKSPACE_NOT_FOUND), and the multipart uploads that
 * store a received file at once. Other errors as `AssetService` documents them.
 */
@Injectable()
export class LegacyAssetService {
  constructor(
    private readonly files: AttachmentService,
    private readonly repo: AttachmentRepository,
    private readonly core: AssetCore,
  ) {}

  // ---- legacy (`/api/users/file-assets/`, `/api/workspaces/file-assets/`) -------------------

  /** Plane's `UserAssetsEndpoint.get`: `{data, status: true}`, or `{error, status: false}` (200 both). */
  async legacyUserAsset(userId: string, key: string): Promise<Record<string, unknown>> {
    const [a] = await this.repo.findByKey(key, { userId });
    return a
      ? { data: appAttachmentView(a, null), status: true }
      : { error: 'Asset key does not exist', status: false };
  }

  /** Plane's `FileAssetEndpoint.get`: `{data: [...], status: true}`, or `{error, status: false}`; 404 outside the caller's workspaces. */
  async legacyWorkspaceAssets(userId: string, workspaceId: string, key: string): Promise<Record<string, unknown>> {
    await this.core.assertMember(workspaceId, userId);
    const ws = workspaceId.toLowerCase();
    const rows = await this.repo.findByKey(`${ws}/${key}`, { workspaceId: ws });
    return rows.length > 0
      ? { data: rows.map((a) => appAttachmentView(a, null)), status: true }
      : { error: 'Asset key does not exist', status: false };
  }

  /** 204: soft-deletes the asset by key (the user's own, or the workspace's); 404 when there is none. */
  async legacyDelete(userId: string, key: string, workspaceId?: string): Promise<void> {
    if (workspaceId) await this.core.assertMember(workspaceId, userId);
    const ws = workspaceId?.toLowerCase();
    const rows = await this.repo.findByKey(ws ? `${ws}/${key}` : key, { userId, workspaceId: ws });
    if (rows.length === 0) throw new MeridianError('NOT_FOUND');
    await this.repo.softDelete(
      this.repo.manager,
      rows.map((a) => a.id),
      userId,
    );
  }

  /** 204: un-deletes the workspace's asset by key; 404 when there is none. */
  async legacyRestore(userId: string, workspaceId: string, key: string): Promise<void> {
    await this.core.assertMember(workspaceId, userId);
    const ws = workspaceId.toLowerCase();
    const rows = await this.repo.findByKey(`${ws}/${key}`, { workspaceId: ws }, true);
    if (rows.length === 0) throw new MeridianError('NOT_FOUND');
    await this.repo.restore(
      this.repo.manager,
      rows.map((a) => a.id),
    );
  }

  // ---- legacy multipart uploads (`POST /api/users/file-assets/`, `/api/workspaces/{slug}/file-assets/`)

  /**
   * Plane's `UserAssetsEndpoint.post`: the caller's file, received whole, stored and marked uploaded
   * at once; 201 with Plane's `FileAssetSerializer` and `asset_url`. `entity_type` `USER_AVATAR`
   * (default) or `USER_COVER` (else 400 INVALID_ENTITY_TYPE); it does not become the avatar or cover
   * (as Plane: the client sets the returned URL on the user). JPEG, PNG, WebP or GIF.
   */
  async uploadUserAsset(
    userId: string,
    file: ReceivedFile,
    fields: LegacyUploadFields,
  ): Promise<Record<string, unknown>> {
    const input = received(file, fields, 'USER_AVATAR');
    const { type, name } = this.core.checkImage({ ...input, name: file.name }, USER_TYPES);
    return this.storeReceived(await this.core.insertUserAsset(userId, input, type, name), file.data, userId, null);
  }

  /**
   * Plane's `FileAssetEndpoint.post`: a file of the workspace, received whole, stored and marked
   * uploaded at once; 201 with Plane's `FileAssetSerializer` and `asset_url`. `entity_type` as the v2
   * workspace route takes it (a logo: workspace Admins, a project cover: project or workspace Admins),
   * by default `PAGE_DESCRIPTION`: an image outside any project, which every member of the workspace
   * reads through `asset_url`. Nothing is put in place (no logo or cover is changed).
   */
  async uploadWorkspaceAsset(
    scope: WorkspaceAssetScope,
    file: ReceivedFile,
    fields: LegacyUploadFields,
  ): Promise<Record<string, unknown>> {
    const input = received(file, fields, 'PAGE_DESCRIPTION');
    const { type, name } = this.core.checkImage({ ...input, name: file.name }, WORKSPACE_TYPES);
    const asset = await this.core.insertWorkspaceAsset(scope, input, type, name);
    return this.storeReceived(asset, file.data, scope.userId, scope.slug);
  }

  /** Stores a received file for its new asset row and marks the asset uploaded; the row in Plane's shape. */
  private async storeReceived(
    asset: FileAsset,
    data: Buffer,
    userId: string,
    slug: string | null,
  ): Promise<Record<string, unknown>> {
    await this.files.storeReceived(asset, data, userId);
    await this.repo.update(this.repo.manager, [asset.id], { isUploaded: true, updatedById: userId });
    return appAttachmentView(await this.core.found(this.repo.manager, asset.id, {}), slug);
  }
}

/** The form fields of a legacy upload besides the file (Plane's `FileAssetSerializer` fields Meridian takes). */
export interface LegacyUploadFields {
  entity_type?: string;
  entity_identifier?: string;
  /** `attributes.name`: the name shown for the file (default: the file's own name) */
  name?: string;
}

/** A received file as the v2 routes' `POST` body: its name (or the given one), type, size and entity. */
function received(file: ReceivedFile, fields: LegacyUploadFields, entityType: string): CreateAssetInput {
  return {
    name: fields.name?.trim() || file.name.trim(),
    type: mediaType(file.type),
    size: file.data.length,
    entity_type: fields.entity_type?.trim() || entityType,
    entity_identifier: fields.entity_identifier ?? null,
  };
}
