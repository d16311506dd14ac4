import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Cycle } from '../cycle';
import { DraftIssue } from './draft-issue.entity';

/** The cycle of a draft work item (Plane `DraftIssueCycle`): at most one per draft. */
@Entity({ name: 'draft_issue_cycles' })
export class DraftIssueCycle {
  @PrimaryColumn({ type: 'uuid' })
  draftIssueId: string;

  @ManyToOne(() => DraftIssue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'draft_issue_id' })
  draftIssue?: DraftIssue;

  @Index('ix_draft_issue_cycles_cycle')
  @Column({ type: 'uuid' })
  cycleId: string;

  @ManyToOne('Cycle', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cycle_id' })
  cycle?: Cycle;
}
