import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/** A project's intake (Plane's `Intake`): one per project, made the first time intake is used. */
@Entity({ name: 'intakes' })
@Index('uq_intakes_project_live', ['projectId'], { unique: true, where: '"deleted_at" IS NULL' })
export class Intake extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'boolean', default: true })
  isDefault: boolean;
}
