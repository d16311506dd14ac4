import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { guestCondition, Issue, IssueComment } from '../issue';
import { Project } from '../project';
import { User } from '../user';
import { Workspace } from '../workspace';
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

/** The image columns an uploaded asset fills (Plane's `avatar_asset`, `cover_image_asset`, `logo_asset`). */
export type ImageSlot = 'user.avatar' | 'user.coverImage' | 'workspace.logo' | 'project.coverImage';

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

  /**
   * The live, non-draft work item of the project (archived ones too), if the project is live; else
   * null. With `guestViewerId` (a project Guest), only one they may see (Plane's Guest rule).
   */
  findIssue(em: EntityManager, projectId: string, issueId: string, guestViewerId?: string): Promise<Issue | null> {
    const qb = em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .innerJoin(Project, 'p', 'p.id = i.projectId AND p.deletedAt IS NULL')
      .where('i.id = :issueId AND i.projectId = :projectId AND i.isDraft = false', { issueId, projectId });
    if (guestViewerId !== undefined)
      qb.andWhere(
        guestCondition(guestViewerId, () => ':guest'),
        { guest: guestViewerId },
      );
    return qb.getOne();
  }

  /** The live comment of the project, or null. */
  findComment(em: EntityManager, projectId: string, commentId: string): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOne({ where: { id: commentId, projectId } });
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

  /** Whether the user is an active member of the live workspace. */
  async isWorkspaceMember(workspaceId: string, userId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL
       WHERE m.workspace_id = $1 AND m.member_id = $2 AND m.is_active = true AND m.deleted_at IS NULL LIMIT 1`,
      [workspaceId, userId],
    );
    return rows.length > 0;
  }

  /**
   * The caller's active role in a live project of the workspace: `undefined` when there is no such
   * project, null when they are not a member.
   */
  async projectRole(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    userId: string,
  ): Promise<number | null | undefined> {
    const rows: Array<{ role: number | null }> = await em.query(
      `SELECT pm.role FROM projects p
       LEFT JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = $3 AND pm.is_active = true AND pm.deleted_at IS NULL
       WHERE p.id = $2 AND p.workspace_id = $1 AND p.deleted_at IS NULL LIMIT 1`,
      [workspaceId, projectId, userId],
    );
    return rows.length === 0 ? undefined : rows[0].role === null ? null : Number(rows[0].role);
  }

  /** The URL an image column holds (null when the row is gone). */
  async imageOf(em: EntityManager, slot: ImageSlot, id: string): Promise<string | null> {
    const [table, column] = slotColumn(slot);
    const row = await em.getRepository(table).findOne({ where: { id }, select: { id: true, [column]: true } });
    return row ? ((row as unknown as Record<string, string | null>)[column] ?? null) : null;
  }

  /** Sets an image column; `onlyIf`: only while it still holds that URL. */
  async setImage(em: EntityManager, slot: ImageSlot, id: string, url: string | null, onlyIf?: string): Promise<void> {
    const [table, column] = slotColumn(slot);
    const where: Record<string, unknown> = { id };
    if (onlyIf !== undefined) where[column] = onlyIf;
    await em.getRepository(table).update(where, { [column]: url });
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

function slotColumn(slot: ImageSlot): [typeof User | typeof Workspace | typeof Project, string] {
  switch (slot) {
    case 'user.avatar':
      return [User, 'avatar'];
    case 'user.coverImage':
      return [User, 'coverImage'];
    case 'workspace.logo':
      return [Workspace, 'logo'];
    case 'project.coverImage':
      return [Project, 'coverImage'];
  }
}
