import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/**
 * A quick link on a user's workspace home page (Plane's `WorkspaceUserLink`,
 * `plane/db/models/workspace.py`): private to its owner; one per owner and URL.
 */
@Entity({ name: 'workspace_user_links' })
@Index('ix_workspace_user_links_workspace_owner', ['workspaceId', 'ownerId', 'createdAt'])
export class WorkspaceUserLink extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ type: 'uuid' })
  ownerId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: User;

  @Column({ type: 'varchar', length: 255, nullable: true })
  title: string | null;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;
}
