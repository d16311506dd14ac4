import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Issue } from './issue.entity';

/** A label of a work item; the set is replaced as a whole on update. */
@Entity({ name: 'issue_labels' })
// a label's work items in creation order: a page of `labels=<id>` and of the `labels__id` groups (`visiblePage`)
@Index('ix_issue_labels_label_created', ['labelId', 'issueCreatedAt', 'issueId'])
export class IssueLabel {
  @PrimaryColumn({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Index('ix_issue_labels_label')
  @PrimaryColumn({ type: 'uuid' })
  labelId: string;

  /**
   * The work item's `created_at`, kept equal to it by the database (migration
   * `LabelIssueCreatedAt`: set on insert, follows a change of the work item's); never written here.
   */
  @Column({ type: 'timestamptz', insert: false, update: false })
  issueCreatedAt?: Date;
}
