import { Column, Entity, Index } from 'typeorm';
import { PlanningEntity } from './planning.entity';

/**
 * A cycle (sprint) of a project (Plane `plane/db/models/cycle.py`). Dates are instants: the start
 * of `start_date` and the end of `end_date` in the project's time zone. A cycle "has ended" when
 * `end_date` is in the past.
 */
@Entity({ name: 'cycles' })
@Index('ix_cycles_project_created', ['projectId', 'createdAt'])
@Index('uq_cycles_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class Cycle extends PlanningEntity {
  @Column({ type: 'timestamptz', nullable: true })
  startDate: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  endDate: Date | null;

  @Column({ type: 'uuid' })
  ownedById: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  progressSnapshot: Record<string, unknown>;

  @Column({ type: 'varchar', length: 255, default: 'UTC' })
  timezone: string;

  @Column({ type: 'integer', default: 1 })
  version: number;
}
