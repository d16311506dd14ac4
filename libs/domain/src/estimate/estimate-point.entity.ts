import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Estimate } from './estimate.entity';

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
