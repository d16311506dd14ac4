import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Issue, Priority } from '../issue';
import type { Project } from '../project';
import type { State } from '../state';
import type { Workspace } from '../workspace';

/**
 * A workspace draft work item (Plane 0.25.3 `DraftIssue`, `plane/db/models/draft.py`): private to
 * its creator, optionally in a project, published into that project as a real work item
 * (`draft-to-issue/`). Its assignees, labels, cycle and modules live in their own tables.
 */
@Entity({ name: 'draft_issues' })
@Index('ix_draft_issues_workspace_creator_created', ['workspaceId', 'createdById', 'createdAt'])
export class DraftIssue extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Index('ix_draft_issues_project')
  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'parent_id' })
  parent?: Issue;

  @Column({ type: 'uuid', nullable: true })
  stateId: string | null;

  @ManyToOne('State', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'state_id' })
  state?: State;

  @Column({ type: 'uuid', nullable: true })
  estimatePointId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  description: Record<string, unknown>;

  @Column({ type: 'text', default: '<p></p>' })
  descriptionHtml: string;

  @Column({ type: 'text', nullable: true })
  descriptionStripped: string | null;

  @Column({ type: 'varchar', length: 30, default: 'none' })
  priority: Priority;

  @Column({ type: 'date', nullable: true })
  startDate: string | null;

  @Column({ type: 'date', nullable: true })
  targetDate: string | null;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: 'uuid', nullable: true })
  typeId: string | null;
}
