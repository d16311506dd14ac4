import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DisplayPropertiesBase } from './display-properties.base';
import type { Module } from '../module';
import type { Project } from '../project';

/** A module's work item list settings (Plane's `module_user_properties`): one per user and module. */
@Entity({ name: 'module_user_properties' })
@Index('uq_module_user_properties_live', ['moduleId', 'userId'], { unique: true, where: '"deleted_at" IS NULL' })
export class ModuleUserProperties extends DisplayPropertiesBase {
  @Column({ type: 'uuid' })
  projectId: string;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'uuid' })
  moduleId: string;

  @ManyToOne('Module', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'module_id' })
  module?: Module;
}
