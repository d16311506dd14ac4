import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { User } from '../user';
import { DraftIssue } from './draft-issue.entity';

/** An assignee of a draft work item (Plane `DraftIssueAssignee`); the set is replaced as a whole on update. */
@Entity({ name: 'draft_issue_assignees' })
export class DraftIssueAssignee {
  @PrimaryColumn({ type: 'uuid' })
  draftIssueId: string;

  @ManyToOne(() => DraftIssue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'draft_issue_id' })
  draftIssue?: DraftIssue;

  @Index('ix_draft_issue_assignees_assignee')
  @PrimaryColumn({ type: 'uuid' })
  assigneeId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'assignee_id' })
  assignee?: User;
}
