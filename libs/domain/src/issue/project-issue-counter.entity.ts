import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Project } from '../project';

/**
 * Per project: the last `sequence_id` taken (bumped with `UPDATE … RETURNING`) and how many of its
 * work items are visible (`visible_count`: not deleted, archived, a draft or waiting in intake; the
 * unfiltered total of every list). Creates add to both in their counter upsert (`issue.sql.ts`);
 * every other change of visibility is counted by the database's triggers on `issues` and
 * `intake_issues` (migration `IssueVisibleCounts`), in the writing transaction.
 */
@Entity({ name: 'project_issue_counters' })
export class ProjectIssueCounter {
  @PrimaryColumn({ type: 'uuid' })
  projectId: string;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'integer', default: 0 })
  lastSequence: number;

  @Column({ type: 'integer', default: 0 })
  visibleCount: number;
}
