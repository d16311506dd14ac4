import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Issue } from './issue.entity';

/** A label of a work item; the set is replaced as a whole on update. */
@Entity({ name: 'issue_labels' })
export class IssueLabel {
  @PrimaryColumn({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Index('ix_issue_labels_label')
  @PrimaryColumn({ type: 'uuid' })
  labelId: string;
}
