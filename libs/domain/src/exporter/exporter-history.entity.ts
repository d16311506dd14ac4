import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** `provider` values (Plane's `ExporterHistory.provider` choices). */
export const EXPORT_PROVIDERS = ['csv', 'json', 'xlsx'] as const;
export type ExportProvider = (typeof EXPORT_PROVIDERS)[number];

/** `status` values, in the order an export passes them (`failed` instead of `completed`). */
export const EXPORT_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/**
 * One work item export of a workspace (Plane's `ExporterHistory`, `plane/db/models/exporter.py`,
 * table `exporters`): the projects exported (`project`, ids), the file format, the status the
 * background job moves through, the stored file's key and the members-only download link (`url`),
 * and `reason` when it failed. `token` is Plane's random hex handle of the export.
 */
@Entity({ name: 'exporters' })
@Index('ix_exporters_workspace_created', ['workspaceId', 'createdAt'], { where: '"deleted_at" IS NULL' })
export class ExporterHistory extends BaseEntity {
  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 50, default: 'issue_exports' })
  type: string;

  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid', array: true, nullable: true })
  project: string[] | null;

  @Column({ type: 'varchar', length: 50 })
  provider: ExportProvider;

  @Column({ type: 'varchar', length: 50, default: 'queued' })
  status: ExportStatus;

  @Column({ type: 'text', default: '' })
  reason: string;

  @Column({ type: 'text', default: '' })
  key: string;

  @Column({ type: 'varchar', length: 800, nullable: true })
  url: string | null;

  @Index('ux_exporters_token', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  token: string;

  @Column({ type: 'uuid' })
  initiatedById: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'initiated_by_id' })
  initiatedBy?: User;

  @Column({ type: 'jsonb', nullable: true })
  filters: Record<string, unknown> | null;
}
