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

/**
 * One value of an estimate (Plane CE's `EstimatePoint`): `key` orders the points and is unique
 * among the estimate's live points; `value` is at most 20 characters (a number for `points` and
 * `time` estimates).
 */
@Entity({ name: 'estimate_points' })
@Index('uq_estimate_points_key_live', ['estimateId', 'key'], { unique: true, where: '"deleted_at" IS NULL' })
export class EstimatePoint extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  estimateId: string;

  @ManyToOne(() => Estimate, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'estimate_id' })
  estimate?: Estimate;

  @Column({ type: 'integer' })
  key: number;

  @Column({ type: 'varchar', length: 20 })
  value: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;
}
