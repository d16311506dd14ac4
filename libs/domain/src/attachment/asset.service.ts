import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { assertProjectWritable } from '../kernel/project-writable';
import { AssetPatch, AssetScope, AttachmentRepository, ImageSlot } from './attachment.repository';
import { AttachmentService, mediaType, ReceivedFile } from './attachment.service';
import {
  ASSET_ENTITY_TYPES,
  assetUrl,
  appAttachmentView,
  DESCRIPTION_ENTITY_TYPES,
  IMAGE_MIME_TYPES,
  STATIC_ENTITY_TYPES,
  staticAssetId,
} from './asset.view';
import { FileAsset, FileAttributes } from './file-asset.entity';

/** `POST` body of the v2 asset routes (the web app's `TFileEntityInfo` and `TFileMetaDataLite`). */
export interface CreateAssetInput {
  name: string;
  /** default `image/jpeg` (Plane) */
  type?: string;
  size: number;
  entity_type: string;
  /** the entity the asset belongs to; '' when it does not exist yet (linked later by the bulk route) */
  entity_identifier?: string | null;
}

/** The caller at a workspace route: the workspace of `{slug}` and their workspace role. */
export interface WorkspaceAssetScope {
  workspaceId: string;
  slug: string;
  userId: string;
  role: number;
}

/** The caller at a project route: also the project of `{project_id}` and their project role. */
export interface ProjectAssetScope extends WorkspaceAssetScope {
  projectId: string;
  projectRole: number | null;
}

const ADMIN = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A published board's project, as its visitors' uploads need it (Plane `plane/space/views/asset.py`). */
export interface BoardAssetScope {
  workspaceId: string;
  projectId: string;
  anchor: string;
  /** the signed-in visitor (writes only) */
  userId: string;
}

/** Entity types each route creates (the others → 400 INVALID_ENTITY_TYPE). */
const USER_TYPES = ['USER_AVATAR', 'USER_COVER'];
const WORKSPACE_TYPES = ['WORKSPACE_LOGO', 'PROJECT_COVER', 'USER_AVATAR', 'USER_COVER', ...DESCRIPTION_ENTITY_TYPES];
const PROJECT_TYPES = ['PROJECT_COVER', ...DESCRIPTION_ENTITY_TYPES];
/** What a board's visitor uploads: images in a comment or in a work item they submit. */
const BOARD_TYPES = ['COMMENT_DESCRIPTION', 'ISSUE_DESCRIPTION'];

/**
 * The web app's uploads other than work item attachments (Plane 0.25.3 `plane/app/views/asset/v2.py`:
 * `UserAssetsV2Endpoint`, `WorkspaceFileAssetEndpoint`, `ProjectAssetEndpoint`,
 * `ProjectBulkAssetEndpoint`, `AssetRestoreEndpoint`, `StaticFileAssetEndpoint`; and the legacy
 * `plane/app/views/asset/base.py`). The presigned flow: `create` records the asset and answers
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
  ) {}

  // ---- user assets (`/api/assets/v2/user-assets/`) ------------------------------------------

  /** An avatar or cover image of the caller: 200 `{upload_data, asset_id, asset_url}`. */
  async createUserAsset(userId: string, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.checkImage(input, USER_TYPES);
    return this.created(await this.insertUserAsset(userId, input, type, name), null);
  }

  /** 204: marks the caller's asset uploaded; it becomes their avatar or cover image. */
  async completeUserAsset(userId: string, assetId: string, attributes?: Partial<FileAttributes>): Promise<void> {
    await this.complete(assetId, { userId }, userId, attributes, async (em, a) => {
      const slot: ImageSlot = a.entityType === 'USER_AVATAR' ? 'user.avatar' : 'user.coverImage';
      await this.putImage(em, slot, userId, a, userId, { userId });
    });
  }

  /** 204: soft-deletes the caller's asset; their avatar or cover image is cleared if it was this one. */
  async deleteUserAsset(userId: string, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, { userId });
      await this.repo.softDelete(em, [a.id], userId);
      const slot: ImageSlot = a.entityType === 'USER_AVATAR' ? 'user.avatar' : 'user.coverImage';
      await this.repo.setImage(em, slot, userId, null, assetUrl(a, null) ?? undefined);
    });
  }

  // ---- workspace assets (`/api/assets/v2/workspaces/{slug}/`) --------------------------------

  /** A workspace logo, project cover or an image outside any project: 200 `{upload_data, asset_id, asset_url}`. */
  async createWorkspaceAsset(scope: WorkspaceAssetScope, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.checkImage(input, WORKSPACE_TYPES);
    return this.created(await this.insertWorkspaceAsset(scope, input, type, name), scope.slug);
  }

  /** 204: marks the workspace's asset uploaded; a logo or project cover is put in place. */
  async completeWorkspaceAsset(
    scope: WorkspaceAssetScope,
    assetId: string,
    attributes?: Partial<FileAttributes>,
  ): Promise<void> {
    const ws = { workspaceId: scope.workspaceId };
    await this.complete(assetId, ws, scope.userId, attributes, async (em, a) => {
      await this.assertMayChange(em, scope, a);
      if (a.entityType === 'WORKSPACE_LOGO')
        await this.putImage(em, 'workspace.logo', scope.workspaceId, a, scope.userId, ws);
      else if (a.entityType === 'PROJECT_COVER' && a.projectId)
        await this.putImage(em, 'project.coverImage', a.projectId, a, scope.userId, { ...ws, projectId: a.projectId });
    });
  }

  /** 204: soft-deletes the workspace's asset (its file stays, for restore); a logo or cover that was this one is cleared. */
  async deleteWorkspaceAsset(scope: WorkspaceAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, { workspaceId: scope.workspaceId });
      await this.assertMayChange(em, scope, a);
      await this.repo.softDelete(em, [a.id], scope.userId);
      const url = assetUrl(a, scope.slug) ?? undefined;
      if (a.entityType === 'WORKSPACE_LOGO')
        await this.repo.setImage(em, 'workspace.logo', scope.workspaceId, null, url);
      else if (a.entityType === 'PROJECT_COVER' && a.projectId)
        await this.repo.setImage(em, 'project.coverImage', a.projectId, null, url);
    });
  }

  /** A signed read URL of an uploaded asset of the workspace (the route answers 302); else 404. */
  async workspaceReadUrl(scope: WorkspaceAssetScope, assetId: string): Promise<string> {
    const a = await this.found(this.dataSource.manager, assetId, { workspaceId: scope.workspaceId });
    if (!a.isUploaded) throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
    return this.files.readUrl(a);
  }

  /** 204: un-deletes an asset of the workspace (an editor's undo). */
  async restoreWorkspaceAsset(scope: WorkspaceAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, { workspaceId: scope.workspaceId, withDeleted: true });
      await this.repo.restore(em, [a.id]);
    });
  }

  /** The signed read URL of an uploaded avatar, cover or logo, for anyone who has its id; else 404. */
  async staticReadUrl(assetId: string): Promise<string> {
    const a = await this.repo.findAsset(this.dataSource.manager, assetId, {});
    if (!a || !a.isUploaded || !STATIC_ENTITY_TYPES.includes(a.entityType))
      throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
    return this.files.readUrl(a);
  }

  // ---- project assets (`/api/assets/v2/workspaces/{slug}/projects/{project_id}/`) ----------

  /** An image in a description of the project (or its cover): 200 `{upload_data, asset_id, asset_url}`. */
  async createProjectAsset(scope: ProjectAssetScope, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.checkImage(input, PROJECT_TYPES);
    const id = (input.entity_identifier ?? '').trim() || null;
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const link = await this.link(em, scope, input.entity_type, id);
      const asset = await this.repo.insert(
        em,
        em.create(FileAsset, {
          ...this.row(input, type, `${scope.workspaceId}/${hex()}-${name}`, scope.userId),
          workspaceId: scope.workspaceId,
          projectId: scope.projectId,
          userId: scope.userId,
          ...link,
        }),
      );
      return this.created(asset, scope.slug);
    });
  }

  /** 204: marks the project's asset uploaded. */
  async completeProjectAsset(
    scope: ProjectAssetScope,
    assetId: string,
    attributes?: Partial<FileAttributes>,
  ): Promise<void> {
    await this.complete(
      assetId,
      { workspaceId: scope.workspaceId, projectId: scope.projectId },
      scope.userId,
      attributes,
    );
  }

  /** 204: soft-deletes the project's asset (its file stays, for restore). */
  async deleteProjectAsset(scope: ProjectAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, { workspaceId: scope.workspaceId, projectId: scope.projectId });
      await this.repo.softDelete(em, [a.id], scope.userId);
    });
  }

  /** A signed read URL of an uploaded asset of the project (the route answers 302); else 404. */
  async projectReadUrl(scope: ProjectAssetScope, assetId: string): Promise<string> {
    const a = await this.found(this.dataSource.manager, assetId, {
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
          await this.assertCoverEditor(em, scope, scope.projectId);
          await this.repo.update(em, ids, { projectId: scope.projectId, entityIdentifier: scope.projectId });
          const cover = group.find((a) => a.isUploaded);
          if (cover)
            await this.putImage(em, 'project.coverImage', scope.projectId, cover, scope.userId, {
              workspaceId: scope.workspaceId,
              projectId: scope.projectId,
            });
        } else if (DESCRIPTION_ENTITY_TYPES.includes(type) || type === 'ISSUE_ATTACHMENT') {
          const link = await this.link(em, scope, type, entityId);
          await this.repo.update(em, ids, { projectId: scope.projectId, ...link });
        }
      }
    });
  }

  // ---- published boards (`/api/public/assets/v2/anchor/{anchor}/`) --------------------------

  /**
   * A visitor's image for a comment or a work item they submit on the board: 200 `{upload_data,
   * asset_id, asset_url}` with `asset_url` the public read path. `entity_identifier`, when given, is
   * a comment of the project or a work item the visitor created (else 404).
   */
  async createBoardAsset(scope: BoardAssetScope, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.checkImage(input, BOARD_TYPES);
    const id = (input.entity_identifier ?? '').trim() || null;
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const link = await this.link(em, this.boardScope(scope), input.entity_type, id);
      const asset = await this.repo.insert(
        em,
        em.create(FileAsset, {
          ...this.row(input, type, `${scope.workspaceId}/${hex()}-${name}`, scope.userId),
          workspaceId: scope.workspaceId,
          projectId: scope.projectId,
          userId: scope.userId,
          ...link,
        }),
      );
      return {
        upload_data: await this.files.uploadTarget(asset, true),
        asset_id: asset.id,
        asset_url: `/api/public/assets/v2/anchor/${scope.anchor}/${asset.id}/`,
      };
    });
  }

  /** 204: the visitor's own upload of the board's project marked uploaded; else 404. */
  async completeBoardAsset(
    scope: BoardAssetScope,
    assetId: string,
    attributes?: Partial<FileAttributes>,
  ): Promise<void> {
    await this.complete(assetId, this.own(scope), scope.userId, attributes);
  }

  /** 204: soft-deletes the visitor's own upload (its file stays, for restore); else 404. */
  async deleteBoardAsset(scope: BoardAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, this.own(scope));
      await this.repo.softDelete(em, [a.id], scope.userId);
    });
  }

  /** 204: un-deletes the visitor's own upload; else 404. */
  async restoreBoardAsset(scope: BoardAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, { ...this.own(scope), withDeleted: true });
      await this.repo.restore(em, [a.id]);
    });
  }

  /**
   * Anyone: the signed read URL (302) of an uploaded image in a work item's or comment's description
   * of the board's project (Plane reads any of the workspace: tighter here); else 404.
   */
  async boardReadUrl(board: Omit<BoardAssetScope, 'userId'>, assetId: string): Promise<string> {
    const a = await this.found(this.dataSource.manager, assetId, {
      workspaceId: board.workspaceId,
      projectId: board.projectId,
    });
    if (!a.isUploaded || !BOARD_TYPES.includes(a.entityType))
      throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
    return this.files.readUrl(a);
  }

  /**
   * 204: links the visitor's own comment images uploaded before the comment existed to `entityId`, a
   * comment of the project (Plane links only `COMMENT_DESCRIPTION` assets); 404 when none of
   * `assetIds` is theirs in the project, or the comment is not the project's.
   */
  async bulkLinkBoardAssets(scope: BoardAssetScope, entityId: string, assetIds: string[]): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const assets = await this.repo.findOwnInProject(em, scope.projectId, scope.userId, assetIds);
      if (assets.length === 0) throw new MeridianError('NOT_FOUND', 'The requested asset could not be found.');
      const comments = assets.filter((a) => a.entityType === 'COMMENT_DESCRIPTION').map((a) => a.id);
      if (!comments.length) return;
      const link = await this.link(em, this.boardScope(scope), 'COMMENT_DESCRIPTION', entityId);
      await this.repo.update(em, comments, link);
    });
  }

  private own(scope: BoardAssetScope): AssetScope {
    return { workspaceId: scope.workspaceId, projectId: scope.projectId, createdById: scope.userId };
  }

  /** A visitor as `link` sees a caller: no workspace or project role (work items: their own only). */
  private boardScope(scope: BoardAssetScope): ProjectAssetScope {
    return {
      workspaceId: scope.workspaceId,
      slug: '',
      userId: scope.userId,
      role: 0,
      projectId: scope.projectId,
      projectRole: null,
    };
  }

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
    await this.assertMember(workspaceId, userId);
    const ws = workspaceId.toLowerCase();
    const rows = await this.repo.findByKey(`${ws}/${key}`, { workspaceId: ws });
    return rows.length > 0
      ? { data: rows.map((a) => appAttachmentView(a, null)), status: true }
      : { error: 'Asset key does not exist', status: false };
  }

  /** 204: soft-deletes the asset by key (the user's own, or the workspace's); 404 when there is none. */
  async legacyDelete(userId: string, key: string, workspaceId?: string): Promise<void> {
    if (workspaceId) await this.assertMember(workspaceId, userId);
    const ws = workspaceId?.toLowerCase();
    const rows = await this.repo.findByKey(ws ? `${ws}/${key}` : key, { userId, workspaceId: ws });
    if (rows.length === 0) throw new MeridianError('NOT_FOUND');
    await this.repo.softDelete(
      this.dataSource.manager,
      rows.map((a) => a.id),
      userId,
    );
  }

  /** 204: un-deletes the workspace's asset by key; 404 when there is none. */
  async legacyRestore(userId: string, workspaceId: string, key: string): Promise<void> {
    await this.assertMember(workspaceId, userId);
    const ws = workspaceId.toLowerCase();
    const rows = await this.repo.findByKey(`${ws}/${key}`, { workspaceId: ws }, true);
    if (rows.length === 0) throw new MeridianError('NOT_FOUND');
    await this.repo.restore(
      this.dataSource.manager,
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
    const { type, name } = this.checkImage({ ...input, name: file.name }, USER_TYPES);
    return this.storeReceived(await this.insertUserAsset(userId, input, type, name), file.data, userId, null);
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
    const { type, name } = this.checkImage({ ...input, name: file.name }, WORKSPACE_TYPES);
    const asset = await this.insertWorkspaceAsset(scope, input, type, name);
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
    await this.repo.update(this.dataSource.manager, [asset.id], { isUploaded: true, updatedById: userId });
    return appAttachmentView(await this.found(this.dataSource.manager, asset.id, {}), slug);
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** The entity type must be one the route takes, the type an image, the size within the limit. */
  private checkImage(input: CreateAssetInput, entityTypes: readonly string[]): { type: string; name: string } {
    if (
      !(ASSET_ENTITY_TYPES as readonly string[]).includes(input.entity_type) ||
      !entityTypes.includes(input.entity_type)
    )
      throw new MeridianError('INVALID_ENTITY_TYPE', undefined, { allowed_entity_types: entityTypes });
    const type = (input.type ?? '').trim().toLowerCase() || 'image/jpeg';
    if (!IMAGE_MIME_TYPES.includes(type))
      throw new MeridianError(
        'ATTACHMENT_TYPE_NOT_ALLOWED',
        'Invalid file type. Only JPEG, PNG, WebP and GIF files are allowed.',
        {
          allowed_types: IMAGE_MIME_TYPES,
        },
      );
    this.files.assertSize(input.size);
    return { type, name: this.files.keyName(input.name) };
  }

  /** A new avatar or cover image row of the user (not uploaded). */
  private insertUserAsset(userId: string, input: CreateAssetInput, type: string, name: string): Promise<FileAsset> {
    return this.repo.insert(
      this.repo.manager,
      this.repo.manager.create(FileAsset, {
        ...this.row(input, type, `user-${hex()}-${name}`, userId),
        workspaceId: null,
        userId,
        entityIdentifier: userId,
      }),
    );
  }

  /**
   * A new asset row of the workspace (not uploaded): a logo only by a workspace Admin (403) and for
   * this workspace (404), a project cover only by that project's or the workspace's Admins.
   */
  private insertWorkspaceAsset(
    scope: WorkspaceAssetScope,
    input: CreateAssetInput,
    type: string,
    name: string,
  ): Promise<FileAsset> {
    const id = (input.entity_identifier ?? '').trim() || null;
    return this.dataSource.transaction(async (em) => {
      const link: AssetPatch = { entityIdentifier: id };
      if (input.entity_type === 'WORKSPACE_LOGO') {
        if (id !== null && id.toLowerCase() !== scope.workspaceId) throw new MeridianError('NOT_FOUND');
        if (scope.role < ADMIN) throw new MeridianError('PERMISSION_DENIED');
        link.entityIdentifier = scope.workspaceId;
      } else if (input.entity_type === 'PROJECT_COVER' && id !== null) {
        await this.assertCoverEditor(em, scope, id);
        link.projectId = id.toLowerCase();
      }
      return this.repo.insert(
        em,
        em.create(FileAsset, {
          ...this.row(input, type, `${scope.workspaceId}/${hex()}-${name}`, scope.userId),
          workspaceId: scope.workspaceId,
          userId: scope.userId,
          ...link,
        }),
      );
    });
  }

  private row(input: CreateAssetInput, type: string, key: string, userId: string): Partial<FileAsset> {
    const name = input.name.trim();
    return {
      attributes: { name, type, size: input.size },
      asset: key.slice(0, 800),
      size: input.size,
      entityType: input.entity_type,
      createdById: userId,
      updatedById: userId,
    };
  }

  private async created(asset: FileAsset, slug: string | null): Promise<Record<string, unknown>> {
    return {
      upload_data: await this.files.uploadTarget(asset, true),
      asset_id: asset.id,
      asset_url: assetUrl(asset, slug),
    };
  }

  /**
   * Where the new asset points: a work item (`ISSUE_DESCRIPTION`, `ISSUE_ATTACHMENT`) or comment
   * (`COMMENT_DESCRIPTION`) of the project, else 404; the project itself for a cover (project or
   * workspace Admin, else 403); other types keep the identifier as given.
   */
  private async link(
    em: EntityManager,
    scope: ProjectAssetScope,
    type: string,
    id: string | null,
  ): Promise<AssetPatch> {
    if (type === 'PROJECT_COVER') {
      await this.assertCoverEditor(em, scope, scope.projectId);
      return { entityIdentifier: scope.projectId };
    }
    if (id === null) return { entityIdentifier: null };
    if (
      !UUID.test(id) &&
      (type === 'ISSUE_DESCRIPTION' || type === 'ISSUE_ATTACHMENT' || type === 'COMMENT_DESCRIPTION')
    )
      throw new MeridianError('NOT_FOUND');
    const key = id.toLowerCase();
    if (type === 'ISSUE_DESCRIPTION' || type === 'ISSUE_ATTACHMENT') {
      const guest = (scope.projectRole ?? 0) <= 5 ? scope.userId : undefined;
      if (!(await this.repo.findIssue(em, scope.projectId, key, guest))) throw new MeridianError('NOT_FOUND');
      return { issueId: key, entityIdentifier: key };
    }
    if (type === 'COMMENT_DESCRIPTION') {
      if (!(await this.repo.findComment(em, scope.projectId, key))) throw new MeridianError('NOT_FOUND');
      return { commentId: key, entityIdentifier: key };
    }
    return { entityIdentifier: id };
  }

  /** A project's cover is changed by its Admins and the workspace's (Plane: project update is Admin-only). */
  private async assertCoverEditor(em: EntityManager, scope: WorkspaceAssetScope, projectId: string): Promise<void> {
    if (!UUID.test(projectId)) throw new MeridianError('NOT_FOUND');
    const role = await this.repo.projectRole(em, scope.workspaceId, projectId.toLowerCase(), scope.userId);
    if (role === undefined) throw new MeridianError('NOT_FOUND');
    if ((role ?? 0) < ADMIN && scope.role < ADMIN) throw new MeridianError('PERMISSION_DENIED');
  }

  /** A logo is the workspace Admins'; a project's cover its Admins'; other assets any member's. */
  private async assertMayChange(em: EntityManager, scope: WorkspaceAssetScope, a: FileAsset): Promise<void> {
    if (a.entityType === 'WORKSPACE_LOGO' && scope.role < ADMIN) throw new MeridianError('PERMISSION_DENIED');
    if (a.entityType === 'PROJECT_COVER' && a.projectId) await this.assertCoverEditor(em, scope, a.projectId);
  }

  /**
   * PATCH: the asset in `where` (else 404), its file stored (else 400 ATTACHMENT_NOT_UPLOADED),
   * marked uploaded with the client's `attributes` if given, and `then` in the same transaction.
   */
  private async complete(
    assetId: string,
    where: AssetScope,
    actorId: string,
    attributes: Partial<FileAttributes> | undefined,
    then?: (em: EntityManager, a: FileAsset) => Promise<void>,
  ): Promise<void> {
    const pending = await this.found(this.dataSource.manager, assetId, where);
    if (!pending.isUploaded) await this.files.assertStored(pending);
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, where, true);
      const patch: AssetPatch = { isUploaded: true, updatedById: actorId };
      // only the display name: the type and size stay those the upload was signed for
      if (attributes?.name) patch.attributes = { ...a.attributes, name: attributes.name };
      await this.repo.update(em, [a.id], patch);
      if (then) await then(em, a);
    });
  }

  /**
   * Puts the asset's URL in the image column; the asset it replaces is soft-deleted when it is one of
   * Meridian's inside `owner` (the same user, workspace or project: never someone else's).
   */
  private async putImage(
    em: EntityManager,
    slot: ImageSlot,
    id: string,
    a: FileAsset,
    userId: string,
    owner: AssetScope,
  ): Promise<void> {
    const previous = staticAssetId(await this.repo.imageOf(em, slot, id));
    if (previous && previous !== a.id) {
      const old = await this.repo.findAsset(em, previous, owner);
      if (old?.entityType === a.entityType) await this.repo.softDelete(em, [old.id], userId);
    }
    await this.repo.setImage(em, slot, id, assetUrl(a, null));
  }

  private async found(
    em: EntityManager,
    assetId: string,
    where: { userId?: string; workspaceId?: string; projectId?: string; withDeleted?: boolean },
    lock = false,
  ): Promise<FileAsset> {
    const a = await this.repo.findAsset(em, assetId, where, lock);
    if (!a) throw new MeridianError('NOT_FOUND');
    return a;
  }

  private async assertMember(workspaceId: string, userId: string): Promise<void> {
    if (!UUID.test(workspaceId) || !(await this.repo.isWorkspaceMember(workspaceId.toLowerCase(), userId)))
      throw new MeridianError('WORKSPACE_NOT_FOUND');
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

function hex(): string {
  return randomUUID().replace(/-/g, '');
}
