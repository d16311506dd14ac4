import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Issue } from './issue.entity';

/** An assignee of a work item; the set is replaced as a whole on update. */
@Entity({ name: 'issue_assignees' })
// an assignee's work items in creation order: a page of `assignees=<id>` and of the `assignees__id` groups (`visiblePage`)
@Index('ix_issue_assignees_assignee_created', ['assigneeId', 'issueCreatedAt', 'issueId'])
export class IssueAssignee {
  @PrimaryColumn({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Index('ix_issue_assignees_assignee')
  @PrimaryColumn({ type: 'uuid' })
  assigneeId: string;

  /**
   * The work item's `created_at`, kept equal to it by the database (migration
   * `AssigneeIssueCreatedAt`: set on insert, follows a change of the work item's); never written here.
   */
  @Column({ type: 'timestamptz', insert: false, update: false })
  issueCreatedAt?: Date;
}
