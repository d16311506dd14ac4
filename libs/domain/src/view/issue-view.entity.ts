import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Project } from '../project';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** `access` values (Plane's `IssueView.access` choices): a private view is its owner's alone. */
export const VIEW_ACCESS = { PRIVATE: 0, PUBLIC: 1 } as const;

/**
 * A saved view of work items (Plane's `IssueView`, `plane/db/models/view.py`, table `issue_views`):
 * a project's view (`project_id` set) or a workspace's (`project_id` null), with the filters and
 * display settings the web app applies. `query` is the stored filters in Plane's lookup form
 * (read-only); `owned_by` is the creator; a locked view cannot be changed until its owner unlocks
 * it. Soft-deleted.
 */
@Entity({ name: 'issue_views' })
@Index('ix_issue_views_project', ['projectId'], { where: '"deleted_at" IS NULL AND "project_id" IS NOT NULL' })
@Index('ix_issue_views_workspace', ['workspaceId'], { where: '"deleted_at" IS NULL AND "project_id" IS NULL' })
export class IssueView extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @ManyToOne('Project', { onDelete: 'CASCADE', nullable: true })
  @JoinColumn({ name: 'project_id' })
  project?: Project | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  query: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  filters: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  displayFilters: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  displayProperties: Record<string, unknown>;

  @Column({ type: 'smallint', default: VIEW_ACCESS.PUBLIC })
  access: number;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  logoProps: Record<string, unknown>;

  @Column({ type: 'uuid' })
  ownedById: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owned_by_id' })
  ownedBy?: User;

  @Column({ type: 'boolean', default: false })
  isLocked: boolean;
}
