import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Issue } from '../issue';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Cycle } from './cycle.entity';

/**
 * A work item in a cycle. A work item is in at most one cycle (`uq_cycle_issues_issue`): adding it
 * to another cycle moves it. Removing it deletes the row.
 */
@Entity({ name: 'cycle_issues' })
@Index('uq_cycle_issues_issue', ['issueId'], { unique: true })
@Index('ix_cycle_issues_cycle', ['cycleId'])
export class CycleIssue extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  cycleId: string;

  @ManyToOne(() => Cycle, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cycle_id' })
  cycle?: Cycle;

  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;
}
