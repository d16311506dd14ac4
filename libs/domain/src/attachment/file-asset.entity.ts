import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Issue, IssueComment } from '../issue';
import { BaseEntity } from '../kernel/base.entity';

/** `{name, type, size}` of an uploaded file, as the client declared them (Plane's `attributes`). */
export interface FileAttributes {
  name: string;
  type: string;
  size: number;
}

/**
 * A stored file (Plane's `FileAsset`, `plane/db/models/asset.py`) of one of Plane's entity types
 * (`ASSET_ENTITY_TYPES`): work item attachments, images in descriptions, avatars, covers and logos.
 * `asset` is the storage key `{workspace_id}/{uuid hex}-{name}` (`user-{uuid hex}-{name}` for a
 * user's own assets, which belong to no workspace); `is_uploaded` turns true once the object is
 * verified in storage. Deleting soft-deletes the row (`deleted_at`, `is_deleted`); an attachment's
 * object is removed too, other assets keep theirs so that an editor's undo can restore them.
 */
@Entity({ name: 'file_assets' })
@Index('ix_file_assets_issue', ['issueId'])
export class FileAsset extends BaseEntity {
  /** null for a user's avatar and cover image */
  @Column({ type: 'uuid', nullable: true })
  workspaceId: string | null;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ type: 'uuid', nullable: true })
  issueId: string | null;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  /** the comment whose description shows the image (`COMMENT_DESCRIPTION`) */
  @Column({ type: 'uuid', nullable: true })
  commentId: string | null;

  @ManyToOne('IssueComment', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id' })
  comment?: IssueComment;

  @Column({ type: 'jsonb' })
  attributes: FileAttributes;

  /** storage key */
  @Column({ type: 'varchar', length: 800 })
  asset: string;

  @Column({ type: 'varchar', length: 40 })
  entityType: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  entityIdentifier: string | null;

  @Column({ type: 'boolean', default: false })
  isDeleted: boolean;

  @Column({ type: 'boolean', default: false })
  isArchived: boolean;

  @Column({ type: 'boolean', default: false })
  isUploaded: boolean;

  /** bytes */
  @Column({ type: 'double precision', default: 0 })
  size: number;

  @Column({ type: 'jsonb', nullable: true })
  storageMetadata: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: 'uuid', nullable: true })
  userId: string | null;
}
