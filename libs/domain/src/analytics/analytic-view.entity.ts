import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Workspace } from '../workspace';

/**
 * A saved analytics chart of a workspace (Plane's `AnalyticView`, `plane/db/models/analytic.py`,
 * table `analytic_views`): `query_dict` holds the chart's parameters as the web app sent them
 * (`x_axis`, `y_axis`, `segment` and the work item filters), `query` the filters in Plane's
 * lookup form (read-only). Soft-deleted.
 */
@Entity({ name: 'analytic_views' })
@Index('ix_analytic_views_workspace', ['workspaceId'], { where: '"deleted_at" IS NULL' })
export class AnalyticView extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  query: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  queryDict: Record<string, unknown>;
}
