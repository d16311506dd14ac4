import { Column } from 'typeorm';
import { BaseEntity } from './base.entity';

/**
 * Plane's ProjectBaseModel: a row that belongs to a project and, through it, to a workspace
 * (`workspace_id` is the project's, stored again so that workspace-wide reads need no join).
 * The relation objects (`project`, …) are declared by each entity that uses them.
 */
export abstract class ProjectScopedEntity extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid' })
  projectId: string;
}
