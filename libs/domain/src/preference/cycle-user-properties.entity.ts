import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DisplayPropertiesBase } from './display-properties.base';
import type { Cycle } from '../cycle';
import type { Project } from '../project';

/** A cycle's work item list settings (Plane's `cycle_user_properties`): one per user and cycle. */
@Entity({ name: 'cycle_user_properties' })
@Index('uq_cycle_user_properties_live', ['cycleId', 'userId'], { unique: true, where: '"deleted_at" IS NULL' })
export class CycleUserProperties extends DisplayPropertiesBase {
  @Column({ type: 'uuid' })
  projectId: string;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'uuid' })
  cycleId: string;

  @ManyToOne('Cycle', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cycle_id' })
  cycle?: Cycle;
}
