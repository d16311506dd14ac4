import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Issue } from '../issue';
import { BaseEntity } from '../kernel/base.entity';

/** `{name, type, size}` of an uploaded file, as the client declared them (Plane's `attributes`). */
export interface FileAttributes {
  name: string;
  type: string;
  size: number;
}

/**
 * A stored file (Plane's `FileAsset`, `plane/db/models/asset.py`). Only work item attachments
 * (`entity_type` = `ISSUE_ATTACHMENT`) exist so far. `asset` is the storage key
 * `{workspace_id}/{uuid hex}-{name}`; `is_uploaded` turns true once the object is verified in storage.
 * Deleting soft-deletes the row (`deleted_at`, `is_deleted`) and removes the object.
 */
@Entity({ name: 'file_assets' })
@Index('ix_file_assets_issue', ['issueId'])
export class FileAsset extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ type: 'uuid', nullable: true })
  issueId: string | null;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

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
