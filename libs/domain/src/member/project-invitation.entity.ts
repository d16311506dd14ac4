import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import type { Project } from '../project';

/**
 * An invitation to a project (Plane's `ProjectMemberInvite`, `plane/db/models/project.py`): the
 * invitee's email (lower case), the project role, whether and when it was answered. Plane's
 * `token` is not kept: nothing reads it (its join route takes the id and the email), and a secret
 * is never stored plain (docs/decisions.md). One live invitation per project and email.
 */
@Entity({ name: 'project_member_invites' })
@Index('uq_project_member_invites_live', ['projectId', 'email'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_project_member_invites_email', ['email'])
export class ProjectInvitation extends ProjectScopedEntity {
  @ManyToOne('Project', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'boolean', default: false })
  accepted: boolean;

  @Column({ type: 'text', nullable: true })
  message: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  respondedAt: Date | null;

  @Column({ type: 'smallint', default: 5 })
  role: number;
}
