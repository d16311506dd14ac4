import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/**
 * A work item label of a project (Plane `plane/db/models/label.py` Label). Names are unique among the
 * project's live labels; `parent` nests labels (a label of the same project).
 */
@Entity({ name: 'labels' })
@Index('uq_labels_name_live', ['projectId', 'name'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('uq_labels_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class Label extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  color: string;

  @Index('ix_labels_parent')
  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne(() => Label, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'parent_id' })
  parent?: Label;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;
}
