import { Column, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/**
 * The columns a cycle and a module share (Plane's `Cycle` and `Module` models): a project's named
 * row with view and logo settings, an order, an external id and an archive time. Not an entity of
 * its own: `Cycle` (`cycles`) and `Module` (`modules`) extend it, each with its own columns and indexes.
 */
export abstract class PlanningEntity extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '' })
  description: string;

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
