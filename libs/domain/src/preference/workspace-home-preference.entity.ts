import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/** The home page widgets a user gets (Plane's `HomeWidgetKeys` without `quick_tutorial` and `new_at_plane`), first on top. */
export const HOME_WIDGET_KEYS = ['quick_links', 'recents', 'my_stickies'] as const;

/**
 * Whether and where a widget shows on a user's workspace home page (Plane's
 * `WorkspaceHomePreference`, `plane/db/models/workspace.py`); one row per user, workspace and key,
 * created on first read.
 */
@Entity({ name: 'workspace_home_preferences' })
@Index('uq_workspace_home_preferences_live', ['workspaceId', 'userId', 'key'], {
  unique: true,
  where: '"deleted_at" IS NULL',
})
export class WorkspaceHomePreference extends BaseEntity {
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

  @Column({ type: 'boolean', default: true })
  isEnabled: boolean;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  config: Record<string, unknown>;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;
}
