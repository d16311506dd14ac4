import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

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
export class Module extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

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

  @Column({ type: 'jsonb', default: () => "'{}'" })
  viewProps: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  logoProps: Record<string, unknown>;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  archivedAt: Date | null;
}
