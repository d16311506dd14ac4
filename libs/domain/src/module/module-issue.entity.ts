import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Issue } from '../issue';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Module } from './module.entity';

/** A work item in a module; a work item can be in many modules, in each at most once. */
@Entity({ name: 'module_issues' })
@Index('uq_module_issues_module_issue', ['moduleId', 'issueId'], { unique: true })
@Index('ix_module_issues_issue', ['issueId'])
export class ModuleIssue extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  moduleId: string;

  @ManyToOne(() => Module, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'module_id' })
  module?: Module;

  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;
}
