import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Issue } from './issue.entity';

/** A link on a work item (Plane `plane/db/models/issue.py` IssueLink); a URL at most once per work item. */
@Entity({ name: 'issue_links' })
@Index('uq_issue_links_url_live', ['issueId', 'url'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_issue_links_issue_created', ['issueId', 'createdAt'])
export class IssueLink extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;
}
