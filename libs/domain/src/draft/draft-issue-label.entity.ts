import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Label } from '../label';
import { DraftIssue } from './draft-issue.entity';

/** A label of a draft work item (Plane `DraftIssueLabel`); the set is replaced as a whole on update. */
@Entity({ name: 'draft_issue_labels' })
export class DraftIssueLabel {
  @PrimaryColumn({ type: 'uuid' })
  draftIssueId: string;

  @ManyToOne(() => DraftIssue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'draft_issue_id' })
  draftIssue?: DraftIssue;

  @Index('ix_draft_issue_labels_label')
  @PrimaryColumn({ type: 'uuid' })
  labelId: string;

  @ManyToOne('Label', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'label_id' })
  label?: Label;
}
