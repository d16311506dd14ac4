import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Issue } from '../issue';
import { ProjectScopedEntity } from '../kernel/project-scoped.entity';
import { Intake } from './intake.entity';

/** Plane's intake statuses (`plane/db/models/intake.py` IntakeIssue). */
export const INTAKE_STATUS = { DECLINED: -1, PENDING: -2, SNOOZED: 0, ACCEPTED: 1, DUPLICATE: 2 } as const;
export const INTAKE_STATUSES = [-2, -1, 0, 1, 2] as const;

/**
 * A work item in a project's intake (Plane's `IntakeIssue`, `plane/db/models/intake.py`), addressed
 * by its work item's id: at most one live row per work item. While pending or snoozed, the work item
 * is hidden from the normal work item routes.
 */
@Entity({ name: 'intake_issues' })
@Index('uq_intake_issues_issue_live', ['issueId'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_intake_issues_project_created', ['projectId', 'createdAt'])
@Index('uq_intake_issues_external_live', ['projectId', 'externalSource', 'externalId'], {
  unique: true,
  where: '"deleted_at" IS NULL AND "external_id" IS NOT NULL',
})
export class IntakeIssue extends ProjectScopedEntity {
  @Column({ type: 'uuid' })
  intakeId: string;

  @ManyToOne(() => Intake, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'intake_id' })
  intake?: Intake;

  @Column({ type: 'uuid' })
  issueId: string;

  @ManyToOne('Issue', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'issue_id' })
  issue?: Issue;

  @Column({ type: 'smallint', default: -2 })
  status: number;

  @Column({ type: 'timestamptz', nullable: true })
  snoozedTill: Date | null;

  @Column({ type: 'uuid', nullable: true })
  duplicateToId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true, default: 'IN_APP' })
  source: string | null;

  @Column({ type: 'text', nullable: true })
  sourceEmail: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalSource: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  extra: Record<string, unknown>;
}
