import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { assertProjectWritable } from '../kernel/project-writable';
import { AssetScope, AttachmentRepository } from './attachment.repository';
import { AttachmentService } from './attachment.service';
import { AssetCore, BOARD_TYPES, BoardAssetScope, CreateAssetInput, hex, ProjectAssetScope } from './asset-core';
import { FileAsset, FileAttributes } from './file-asset.entity';

/**
 * A published board's visitors' images (Plane 0.25.3 `plane/space/views/asset.py`:
 * `EntityAssetEndpoint`, `AssetRestoreEndpoint`, `EntityBulkAssetEndpoint`), through the App's
 * upload flow (`AssetService`): images in a comment or a work item they submit, in the board's
 * project; a visitor reaches only their own uploads (another's → 404 NOT_FOUND). Other errors as
 * `AssetService` documents them.
 */
@Injectable()
export class BoardAssetService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly files: AttachmentService,
    private readonly repo: AttachmentRepository,
    private readonly core: AssetCore,
  ) {}

  /**
   * A visitor's image for a comment or a work item they submit on the board: 200 `{upload_data,
   * asset_id, asset_url}` with `asset_url` the public read path. `entity_identifier`, when given, is
   * a comment of the project or a work item the visitor created (else 404).
   */
  async createBoardAsset(scope: BoardAssetScope, input: CreateAssetInput): Promise<Record<string, unknown>> {
    const { type, name } = this.core.checkImage(input, BOARD_TYPES);
    const id = (input.entity_identifier ?? '').trim() || null;
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const link = await this.core.link(em, this.boardScope(scope), input.entity_type, id);
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
    await this.core.complete(assetId, this.own(scope), scope.userId, attributes);
  }

  /** 204: soft-deletes the visitor's own upload (its file stays, for restore); else 404. */
  async deleteBoardAsset(scope: BoardAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.core.found(em, assetId, this.own(scope));
      await this.repo.softDelete(em, [a.id], scope.userId);
    });
  }

  /** 204: un-deletes the visitor's own upload; else 404. */
  async restoreBoardAsset(scope: BoardAssetScope, assetId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const a = await this.core.found(em, assetId, { ...this.own(scope), withDeleted: true });
      await this.repo.restore(em, [a.id]);
    });
  }

  /**
   * Anyone: the signed read URL (302) of an uploaded image in a work item's or comment's description
   * of the board's project (Plane reads any of the workspace: tighter here); else 404.
   */
  async boardReadUrl(board: Omit<BoardAssetScope, 'userId'>, assetId: string): Promise<string> {
    const a = await this.core.found(this.repo.manager, assetId, {
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
      const link = await this.core.link(em, this.boardScope(scope), 'COMMENT_DESCRIPTION', entityId);
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
}
