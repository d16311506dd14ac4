import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { User } from '../user';
import { BaseEntity } from '../kernel/base.entity';

/**
 * A workspace (Plane `plane/db/models/workspace.py`). `slug` is unique across all rows,
 * soft-deleted ones included, so a deleted workspace's slug stays reserved.
 */
@Entity({ name: 'workspaces' })
export class Workspace extends BaseEntity {
  @Column({ type: 'varchar', length: 80 })
  name: string;

  @Index('uq_workspaces_slug', { unique: true })
  @Column({ type: 'varchar', length: 48 })
  slug: string;

  @Column({ type: 'uuid' })
  ownerId: string;

  @ManyToOne('User', { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_id' })
  owner?: User;

  @Column({ type: 'varchar', length: 20, nullable: true })
  organizationSize: string | null;

  @Column({ type: 'varchar', length: 255, default: 'UTC' })
  timezone: string;

  @Column({ type: 'text', nullable: true })
  logo: string | null;
}
