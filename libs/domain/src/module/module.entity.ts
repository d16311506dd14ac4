import { Column, Entity, Index } from 'typeorm';
import { PlanningEntity } from '../cycle';

export const MODULE_STATUSES = ['backlog', 'planned', 'in-progress', 'paused', 'completed', 'cancelled'] as const;
export type ModuleStatus = (typeof MODULE_STATUSES)[number];

/**
 * A module of a project (Plane `plane/db/models/module.py`). Names are unique among the project's
 * live modules.
 */
@Entity({ name: 'modules' })
@Index('ix_modules_project_created', ['projectId', 'createdAt'])
@Index('uq_modules_name_live', ['projectId', 'name'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('uq_modules_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class Module extends PlanningEntity {
  @Column({ type: 'jsonb', nullable: true })
  descriptionText: unknown;

  @Column({ type: 'jsonb', nullable: true })
  descriptionHtml: unknown;

  @Column({ type: 'date', nullable: true })
  startDate: string | null;

  @Column({ type: 'date', nullable: true })
  targetDate: string | null;

  @Column({ type: 'varchar', length: 20, default: 'planned' })
  status: ModuleStatus;

  @Column({ type: 'uuid', nullable: true })
  leadId: string | null;
}
