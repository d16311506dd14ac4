import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';
import type { Workspace } from '../workspace';

/**
 * A sticky note (Plane's `Sticky`, `plane/db/models/sticky.py`): private to its
 * owner inside a workspace. `sort_order` grows by 10000 per new sticky of the owner, as in Plane.
 */
@Entity({ name: 'stickies' })
@Index('ix_stickies_workspace_owner_created', ['workspaceId', 'ownerId', 'createdAt'])
export class Sticky extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid' })
  ownerId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_id' })
  owner?: User;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  description: Record<string, unknown>;

  @Column({ type: 'text', default: '<p></p>' })
  descriptionHtml: string;

  @Column({ type: 'text', default: '' })
  descriptionStripped: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  logoProps: Record<string, unknown>;

  @Column({ type: 'varchar', length: 255, nullable: true })
  color: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  backgroundColor: string | null;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;
}
