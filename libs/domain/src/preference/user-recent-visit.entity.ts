import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** What a recent visit can be of, as the home page lists them (Plane lists issue, page and project). */
export const RECENT_VISIT_ENTITIES = ['issue', 'project'] as const;
export type RecentVisitEntity = (typeof RECENT_VISIT_ENTITIES)[number];

/**
 * A user's visit to a work item or project (Plane's `UserRecentVisit`,
 * `plane/db/models/recent_visit.py`, written by `recent_visited_task`): one row per user and
 * entity, `visited_at` moved on each visit; the user keeps the 20 latest per workspace.
 */
@Entity({ name: 'user_recent_visits' })
@Index('uq_user_recent_visits_entity_live', ['workspaceId', 'userId', 'entityName', 'entityIdentifier'], {
  unique: true,
  where: '"deleted_at" IS NULL',
})
export class UserRecentVisit extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 30 })
  entityName: string;

  @Column({ type: 'uuid' })
  entityIdentifier: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  visitedAt: Date;
}
