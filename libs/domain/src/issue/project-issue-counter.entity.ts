import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Project } from '../project';

/** The next `sequence_id` of each project: one row per project, bumped with `UPDATE … RETURNING`. */
@Entity({ name: 'project_issue_counters' })
export class ProjectIssueCounter {
  @PrimaryColumn({ type: 'uuid' })
  projectId: string;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'integer', default: 0 })
  lastSequence: number;
}
