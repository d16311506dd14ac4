import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { Module } from '../module';
import { DraftIssue } from './draft-issue.entity';

/** A module of a draft work item (Plane `DraftIssueModule`); the set is replaced as a whole on update. */
@Entity({ name: 'draft_issue_modules' })
export class DraftIssueModule {
  @PrimaryColumn({ type: 'uuid' })
  draftIssueId: string;

  @ManyToOne(() => DraftIssue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'draft_issue_id' })
  draftIssue?: DraftIssue;

  @Index('ix_draft_issue_modules_module')
  @PrimaryColumn({ type: 'uuid' })
  moduleId: string;

  @ManyToOne('Module', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'module_id' })
  module?: Module;
}
