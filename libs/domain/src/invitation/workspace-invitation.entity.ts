import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Workspace } from '../workspace';

/**
 * An invitation to join a workspace with a role (Plane's `WorkspaceMemberInvite`,
 * `plane/db/models/workspace.py`). One live invitation per (workspace, email). Unlike
 * Plane, the link carries a random secret whose SHA-256 is `tokenDigest`: knowing the invitation
 * id and the email is not enough to answer it.
 */
@Entity({ name: 'workspace_member_invites' })
@Index('uq_workspace_member_invites_live', ['workspaceId', 'email'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_workspace_member_invites_email', ['email'])
export class WorkspaceInvitation extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  /** lower-cased and trimmed */
  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'boolean', default: false })
  accepted: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  respondedAt: Date | null;

  @Column({ type: 'text', default: '' })
  message: string;

  @Column({ type: 'smallint', default: 5 })
  role: number;

  @Column({ type: 'char', length: 64 })
  tokenDigest: string;
}
