import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import type { User } from '../user';
import { Issue } from './issue.entity';

/**
 * A saved state of a work item's description (Plane 0.25.3 `IssueDescriptionVersion`,
 * `plane/db/models/issue.py`; written as `plane/bgtasks/issue_description_version_task.py` does):
 * a change by the same user within 10 minutes of the latest version updates that version, any
 * other change adds one. The work item's first description is kept as the first version, owned by
 * its creator, written with the first change (not on create, which stays one statement).
 */
@Entity({ name: 'issue_description_versions' })
@Index('ix_issue_description_versions_issue_saved', ['issueId', 'lastSavedAt'])
export class IssueDescriptionVersion extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne(() => Issue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'text', default: '<p></p>' })
  descriptionHtml: string;

  @Column({ type: 'text', nullable: true })
  descriptionStripped: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  descriptionJson: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastSavedAt: Date;

  @Column({ type: 'uuid' })
  ownedById: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owned_by_id' })
  ownedBy?: User;
}
