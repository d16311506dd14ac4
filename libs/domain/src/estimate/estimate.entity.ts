import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

export const ESTIMATE_TYPES = ['categories', 'points', 'time'] as const;
export type EstimateType = (typeof ESTIMATE_TYPES)[number];

/**
 * A project's estimate scheme (Plane's `Estimate`, `plane/db/models/estimate.py`; the SDK's
 * `plane-node-sdk/dist/api/Estimates.js`):
 * at most one live estimate per project, as the SDK addresses it without an id. The project uses it
 * once its `estimate` points at it (`estimates.linkToProject`).
 */
@Entity({ name: 'estimates' })
@Index('uq_estimates_project_live', ['projectId'], { unique: true, where: '"deleted_at" IS NULL' })
export class Estimate extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 20, default: 'categories' })
  type: EstimateType;

  @Column({ type: 'boolean', default: false })
  lastUsed: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;
}
