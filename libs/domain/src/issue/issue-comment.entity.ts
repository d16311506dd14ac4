import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Issue } from './issue.entity';

/** A comment on a work item (Plane `plane/db/models/issue.py` IssueComment). */
@Entity({ name: 'issue_comments' })
@Index('ix_issue_comments_issue_created', ['issueId', 'createdAt'])
@Index('uq_issue_comments_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class IssueComment extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'text', default: '<p></p>' })
  commentHtml: string;

  @Column({ type: 'text', default: '' })
  commentStripped: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  commentJson: unknown;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  attachments: string[];

  @Column({ type: 'varchar', length: 20, default: 'INTERNAL' })
  access: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  editedAt: Date | null;

  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;
}
