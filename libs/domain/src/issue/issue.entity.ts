import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Project } from '../project';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import type { State } from '../state';

export const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * A work item, Plane's "issue" (`plane/db/models/issue.py`). `sequence_id` is taken from the
 * project's counter (`project_issue_counters`) inside the create transaction: unique per project,
 * never reused, also after deletes.
 */
@Entity({ name: 'issues' })
@Index('uq_issues_project_sequence', ['projectId', 'sequenceId'], { unique: true })
@Index('uq_issues_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
@Index('ix_issues_project_created', ['projectId', 'createdAt'])
// the visible work items of a project in list order, and their count (index-only scan)
@Index('ix_issues_project_live_created', ['projectId', 'createdAt', 'id'], {
  where: '"deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false',
})
// the searches' recency walk of a workspace's visible work items (migration SearchRecencyIndex) and
// the workspace list, with `project_id`, `created_by_id`, `state_id` and `priority` included
// (migration WorkspaceListCoveringIndex: `INCLUDE`, which TypeORM does not write)
@Index('ix_issues_workspace_live_created', { synchronize: false })
// the web app's sync pages by (updated_at, id) start keys (migration SyncKeysetIndex)
@Index('ix_issues_project_live_updated', ['projectId', 'updatedAt', 'id'], {
  where: '"deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false',
})
// the last sort_order of a state, read on every create while the project's counter is locked
@Index('ix_issues_project_state_sort', ['projectId', 'stateId', 'sortOrder'], { where: '"deleted_at" IS NULL' })
// a state's visible work items newest first and their count (the board's columns, the `state=` filter)
@Index('ix_issues_project_state_live_created', ['projectId', 'stateId', 'createdAt', 'id'], {
  where: '"deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false',
})
// `order_by=sort_order` and `order_by=priority` of a project's list (the priority rank is an
// expression: migration `IssueVisibleCounts` writes that index, TypeORM leaves it alone)
@Index('ix_issues_project_live_sort', ['projectId', 'sortOrder', 'id'], {
  where: '"deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false',
})
@Index('ix_issues_project_live_priority_rank', { synchronize: false })
// the same two orders of the workspace list, covering its scope (migration WorkspaceListOrderIndexes)
@Index('ix_issues_workspace_live_sort', { synchronize: false })
@Index('ix_issues_workspace_live_priority_rank', { synchronize: false })
// `default-analytics/`' completions of the year and point sums, covering the analytics scope
// (migration OverviewIndexes: `INCLUDE`)
@Index('ix_issues_workspace_live_completed', { synchronize: false })
@Index('ix_issues_workspace_live_point', { synchronize: false })
// the searches' `name ILIKE '%text%'`: a trigram GIN index (migration SearchTrigramIndexes)
@Index('ix_issues_name_trgm', { synchronize: false })
// the caller's own work items (the inbox's `type=created`; migration NotificationInboxIndex)
@Index('ix_issues_created_by', ['createdById'])
// the `priority=` filter and `group_by=priority` of the lists, and their totals
@Index('ix_issues_project_priority_live', ['projectId', 'priority'], {
  where: '"deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false',
})
export class Issue extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text', default: '<p></p>' })
  descriptionHtml: string;

  @Column({ type: 'text', default: '' })
  descriptionStripped: string;

  @Column({ type: 'varchar', length: 30, default: 'none' })
  priority: Priority;

  @Index('ix_issues_state')
  @Column({ type: 'uuid', nullable: true })
  stateId: string | null;

  @ManyToOne('State', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'state_id' })
  state?: State;

  @Index('ix_issues_parent')
  @Column({ type: 'uuid', nullable: true })
  parentId: string | null;

  @ManyToOne(() => Issue, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'parent_id' })
  parent?: Issue;

  @Column({ type: 'smallint', nullable: true })
  point: number | null;

  @Column({ type: 'uuid', nullable: true })
  estimatePointId: string | null;

  @Column({ type: 'date', nullable: true })
  startDate: string | null;

  @Column({ type: 'date', nullable: true })
  targetDate: string | null;

  @Column({ type: 'integer' })
  sequenceId: number;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ type: 'date', nullable: true })
  archivedAt: string | null;

  @Column({ type: 'boolean', default: false })
  isDraft: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: 'uuid', nullable: true })
  typeId: string | null;
}
