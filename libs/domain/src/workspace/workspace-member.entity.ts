import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { User } from '../user';
import { Workspace } from './workspace.entity';
import { BaseEntity } from '../kernel/base.entity';

/** A user's membership of a workspace, with role 20 Admin, 15 Member or 5 Guest. */
@Entity({ name: 'workspace_members' })
@Index('uq_workspace_members_live', ['workspaceId', 'memberId'], { unique: true, where: '"deleted_at" IS NULL' })
export class WorkspaceMember extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne(() => Workspace, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Index('ix_workspace_members_member')
  @Column({ type: 'uuid' })
  memberId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'member_id' })
  member?: User;

  @Column({ type: 'smallint', default: 5 })
  role: number;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'varchar', length: 255, nullable: true })
  companyRole: string | null;

  /**
   * The member's own view settings of the workspace (Plane's `view_props`, saved by
   * `POST workspace-views/`); null until first saved, then read as Plane's default props. Not
   * loaded by `find` (`select: false`: member lists never need it); `workspace-members/me/` reads it.
   */
  @Column({ type: 'jsonb', nullable: true, select: false })
  viewProps?: Record<string, unknown> | null;
}
