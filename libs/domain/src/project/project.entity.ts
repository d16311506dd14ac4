import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Workspace } from '../workspace';
import { BaseEntity } from '../kernel/base.entity';

/** Project network: 0 secret (members only), 2 public (every workspace member sees it). */
export const NETWORK = { SECRET: 0, PUBLIC: 2 } as const;

/**
 * A project (Plane `plane/db/models/project.py`). `identifier` (upper-cased, ≤ 12) and `name` are
 * unique among the workspace's live projects.
 */
@Entity({ name: 'projects' })
@Index('uq_projects_identifier_live', ['workspaceId', 'identifier'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('uq_projects_name_live', ['workspaceId', 'name'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_projects_workspace_created', ['workspaceId', 'createdAt'])
@Index('uq_projects_external_live', ['workspaceId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class Project extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'jsonb', nullable: true })
  descriptionText: unknown;

  @Column({ type: 'jsonb', nullable: true })
  descriptionHtml: unknown;

  @Column({ type: 'smallint', default: NETWORK.PUBLIC })
  network: number;

  @Column({ type: 'varchar', length: 12 })
  identifier: string;

  @Column({ type: 'uuid', nullable: true })
  defaultAssigneeId: string | null;

  @Column({ type: 'uuid', nullable: true })
  projectLeadId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  emoji: string | null;

  @Column({ type: 'jsonb', nullable: true })
  iconProp: unknown;

  @Column({ type: 'boolean', default: true })
  moduleView: boolean;

  @Column({ type: 'boolean', default: true })
  cycleView: boolean;

  @Column({ type: 'boolean', default: true })
  issueViewsView: boolean;

  @Column({ type: 'boolean', default: true })
  pageView: boolean;

  @Column({ type: 'boolean', default: false })
  intakeView: boolean;

  @Column({ type: 'boolean', default: false })
  isTimeTrackingEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  isIssueTypeEnabled: boolean;

  @Column({ type: 'boolean', default: false })
  guestViewAllFeatures: boolean;

  @Column({ type: 'text', nullable: true })
  coverImage: string | null;

  @Column({ type: 'uuid', nullable: true })
  estimateId: string | null;

  @Column({ type: 'smallint', default: 0 })
  archiveIn: number;

  @Column({ type: 'smallint', default: 0 })
  closeIn: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  logoProps: Record<string, unknown>;

  @Column({ type: 'uuid', nullable: true })
  defaultStateId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  archivedAt: Date | null;

  @Column({ type: 'varchar', length: 255, default: 'UTC' })
  timezone: string;

  /** where an import took it from (`plane` for `meridian import plane`); not in Plane 0.25.3's project */
  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;
}
