import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { DisplayPropertiesBase } from './display-properties.base';
import type { Project } from '../project';

/** A project's work item list settings (Plane's `issue_user_properties`): one per user and project. */
@Entity({ name: 'issue_user_properties' })
@Index('uq_issue_user_properties_live', ['projectId', 'userId'], { unique: true, where: '"deleted_at" IS NULL' })
export class IssueUserProperty extends DisplayPropertiesBase {
  @Column({ type: 'uuid' })
  projectId: string;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;
}
