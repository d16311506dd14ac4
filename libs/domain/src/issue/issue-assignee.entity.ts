import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Issue } from './issue.entity';

/** An assignee of a work item; the set is replaced as a whole on update. */
@Entity({ name: 'issue_assignees' })
export class IssueAssignee {
  @PrimaryColumn({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Index('ix_issue_assignees_assignee')
  @PrimaryColumn({ type: 'uuid' })
  assigneeId: string;
}
