import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** The sidebar entries a user may pin (Plane's `WorkspaceUserPreference.UserPreferenceKeys`), in Plane's order. */
export const SIDEBAR_KEYS = ['views', 'active_cycles', 'analytics', 'drafts', 'your_work', 'archives'] as const;

/**
 * Whether a sidebar entry is pinned for a user, and where (Plane's `WorkspaceUserPreference`,
 * `plane/db/models/workspace.py`); one row per user, workspace and key, created on first read.
 */
@Entity({ name: 'workspace_user_preferences' })
@Index('uq_workspace_user_preferences_live', ['workspaceId', 'userId', 'key'], {
  unique: true,
  where: '"deleted_at" IS NULL',
})
export class WorkspaceUserPreference extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'varchar', length: 255 })
  key: string;

  @Column({ type: 'boolean', default: false })
  isPinned: boolean;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;
}
