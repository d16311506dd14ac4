import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { User } from '../user';
import { Project } from './project.entity';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';

/** A user's membership of a project (Plane `plane/db/models/project.py`, `ProjectMember`). */
@Entity({ name: 'project_members' })
@Index('uq_project_members_live', ['projectId', 'memberId'], { unique: true, where: '"deleted_at" IS NULL' })
export class ProjectMember extends ProjectScopedEntity {
  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id' })
  project?: Project;

  @Index('ix_project_members_member')
  @Column({ type: 'uuid' })
  memberId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'member_id' })
  member?: User;

  @Column({ type: 'smallint', default: 5 })
  role: number;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @Column({ type: 'double precision', default: 65535 })
  sortOrder: number;

  @Column({ type: 'text', nullable: true })
  comment: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  viewProps: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  defaultProps: Record<string, unknown>;

  @Column({ type: 'jsonb', default: () => `'{"pages": {"block_display": true}}'` })
  preferences: Record<string, unknown>;
}
