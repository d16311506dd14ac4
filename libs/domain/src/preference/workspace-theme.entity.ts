import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/**
 * A custom colour theme saved in a workspace (Plane's `WorkspaceTheme`, `plane/db/models/workspace.py`):
 * a name unique among the workspace's live themes, its author (`actor`) and its `colors`.
 */
@Entity({ name: 'workspace_themes' })
@Index('uq_workspace_themes_name_live', ['workspaceId', 'name'], { unique: true, where: '"deleted_at" IS NULL' })
export class WorkspaceTheme extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'varchar', length: 300 })
  name: string;

  @Column({ type: 'uuid' })
  actorId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'actor_id' })
  actor?: User;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  colors: Record<string, unknown>;
}
