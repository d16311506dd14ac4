import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

export const STATE_GROUPS = ['backlog', 'unstarted', 'started', 'completed', 'cancelled', 'triage'] as const;
export type StateGroup = (typeof STATE_GROUPS)[number];

/** A work item state of a project (Plane `plane/db/models/state.py`); names are unique per project. */
@Entity({ name: 'states' })
@Index('uq_states_name_live', ['projectId', 'name'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('uq_states_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class State extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 255 })
  color: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  slug: string;

  @Column({ type: 'double precision', default: 65535 })
  sequence: number;

  @Column({ type: 'varchar', length: 20, default: 'backlog' })
  group: StateGroup;

  @Column({ type: 'boolean', default: false })
  isTriage: boolean;

  @Column({ type: 'boolean', default: false })
  default: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;
}
