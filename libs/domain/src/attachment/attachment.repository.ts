import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { FileAsset } from './file-asset.entity';

/** Where an asset is looked up: its id and the scope it must lie in (a foreign id is not found). */
export interface AssetScope {
  workspaceId?: string;
  projectId?: string;
  /** the owner of a user asset (`user_id`) */
  userId?: string;
  /** soft-deleted rows too (restore) */
  withDeleted?: boolean;
  /** made by this user (a published board's visitor reaches only their own uploads) */
  createdById?: string;
}

/** Columns an update sets. */
export type AssetPatch = Partial<Omit<FileAsset, 'issue' | 'comment' | 'storageMetadata'>>;

/** All of the attachment feature's SQL. */
@Injectable()
export class AttachmentRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads and writes outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Inserts an asset row (an entity built by the caller); the saved row. */
  insert(em: EntityManager, asset: FileAsset): Promise<FileAsset> {
    return em.save(asset);
  }

  /** The live asset `id` (any kind, any scope), or null. */
  findById(em: EntityManager, id: string): Promise<FileAsset | null> {
    return em.getRepository(FileAsset).findOne({ where: { id } });
  }

  /** The live attachment of the work item with this external id and source, or null. */
  findByExternalId(
    em: EntityManager,
    issueId: string,
    externalId: string,
    externalSource: string,
  ): Promise<FileAsset | null> {
    return em.findOne(FileAsset, { where: { issueId, externalId, externalSource } });
  }

  /** The live attachment (`ISSUE_ATTACHMENT` asset) of the work item, or null; `lock` takes a row lock (FOR UPDATE). */
  findAttachment(
    em: EntityManager,
    projectId: string,
    issueId: string,
    assetId: string,
    lock = false,
  ): Promise<FileAsset | null> {
    const qb = em
      .getRepository(FileAsset)
      .createQueryBuilder('a')
      .where('a.id = :assetId AND a.projectId = :projectId AND a.issueId = :issueId AND a.entityType = :t', {
        assetId,
        projectId,
        issueId,
        t: 'ISSUE_ATTACHMENT',
      });
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Uploaded, live attachments of the work item, oldest first. */
  listAttachments(projectId: string, issueId: string): Promise<FileAsset[]> {
    return this.dataSource.getRepository(FileAsset).find({
      where: { projectId, issueId, isUploaded: true, entityType: 'ISSUE_ATTACHMENT' },
      order: { createdAt: 'ASC' },
    });
  }

  /** The asset by id inside `scope`, or null; `lock` takes a row lock. */
  findAsset(em: EntityManager, id: string, scope: AssetScope, lock = false): Promise<FileAsset | null> {
    const qb = em.getRepository(FileAsset).createQueryBuilder('a').where('a.id = :id', { id });
    if (scope.workspaceId !== undefined) qb.andWhere('a.workspaceId = :w', { w: scope.workspaceId });
    if (scope.projectId !== undefined) qb.andWhere('a.projectId = :p', { p: scope.projectId });
    if (scope.userId !== undefined) qb.andWhere('a.userId = :u AND a.workspaceId IS NULL', { u: scope.userId });
    if (scope.createdById !== undefined) qb.andWhere('a.createdById = :c', { c: scope.createdById });
    if (scope.withDeleted) qb.withDeleted();
    if (lock) qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** Live assets of the workspace among `ids` that are in `projectId` or in no project. */
  findForProject(em: EntityManager, workspaceId: string, projectId: string, ids: string[]): Promise<FileAsset[]> {
    return em
      .getRepository(FileAsset)
      .createQueryBuilder('a')
      .where('a.id IN (:...ids) AND a.workspaceId = :w AND (a.projectId = :p OR a.projectId IS NULL)', {
        ids,
        w: workspaceId,
        p: projectId,
      })
      .getMany();
  }

  /** Live assets among `ids` of the project made by `createdById`. */
  findOwnInProject(em: EntityManager, projectId: string, createdById: string, ids: string[]): Promise<FileAsset[]> {
    return em
      .getRepository(FileAsset)
      .createQueryBuilder('a')
      .where('a.id IN (:...ids) AND a.projectId = :p AND a.createdById = :c', { ids, p: projectId, c: createdById })
      .getMany();
  }

  /** Assets by storage key: the user's own (no workspace), or the workspace's; live ones unless `withDeleted`. */
  findByKey(key: string, scope: { userId?: string; workspaceId?: string }, withDeleted = false): Promise<FileAsset[]> {
    return this.dataSource.getRepository(FileAsset).find({
      where: scope.workspaceId
        ? { asset: key, workspaceId: scope.workspaceId }
        : { asset: key, workspaceId: IsNull(), createdById: scope.userId },
      withDeleted,
      order: { createdAt: 'ASC' },
    });
  }

  /** Sets columns of the assets (no relations). */
  async update(em: EntityManager, ids: string[], patch: AssetPatch): Promise<void> {
    if (ids.length > 0) await em.getRepository(FileAsset).update({ id: In(ids) }, patch);
  }

  /** Soft-deletes live assets (`is_deleted`, `deleted_at`). */
  async softDelete(em: EntityManager, ids: string[], userId: string | null): Promise<void> {
    if (ids.length === 0) return;
    await em
      .getRepository(FileAsset)
      .update({ id: In(ids), deletedAt: IsNull() }, { isDeleted: true, deletedAt: new Date(), updatedById: userId });
  }

  /** Un-deletes assets. */
  async restore(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length > 0)
      await em.getRepository(FileAsset).update({ id: In(ids) }, { isDeleted: false, deletedAt: null });
  }

  /**
   * Up to `limit` live assets whose upload never completed (`is_uploaded` false) created before
   * `before`, oldest first (Plane's `delete_unuploaded_file_asset` filter).
   */
  unuploadedBefore(before: Date, limit: number): Promise<Array<{ id: string; asset: string }>> {
    return this.dataSource.query(
      `SELECT id::text AS id, asset FROM file_assets
       WHERE is_uploaded = false AND deleted_at IS NULL AND created_at < $1::timestamptz
       ORDER BY created_at LIMIT $2`,
      [before.toISOString(), limit],
    );
  }

  /** Soft-deletes the assets `ids` (`deleted_at`, `is_deleted`), as Plane's queryset `delete()` does. */
  async softDeleteAssets(ids: string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE file_assets SET deleted_at = now(), is_deleted = true, updated_at = now() WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  }
}
