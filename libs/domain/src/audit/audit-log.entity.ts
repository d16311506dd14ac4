import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One audit log row (table `audit_logs`, docs/audit.md): a security-relevant event, written in the
 * transaction of the change it records. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE
 * except the retention job's DELETE (`delete-audit-logs`). No foreign keys: a row outlives the
 * user, workspace or project it names (their ids stay as they were).
 */
@Entity({ name: 'audit_logs' })
@Index('ix_audit_logs_created', ['createdAt', 'id'])
@Index('ix_audit_logs_workspace_created', ['workspaceId', 'createdAt', 'id'])
export class AuditLog {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_audit_logs' })
  id: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** the event's name (`AUDIT_EVENTS`) */
  @Column({ type: 'varchar', length: 64 })
  event: string;

  /** the user who acted; null for a failed sign-in of an unknown address or a system action */
  @Column({ type: 'uuid', nullable: true })
  actorId: string | null;

  /** the actor's email at the time (or the address tried, for a failed sign-in) */
  @Column({ type: 'varchar', length: 255, nullable: true })
  actorEmail: string | null;

  /** the API token that authenticated the request; null for a session */
  @Column({ type: 'uuid', nullable: true })
  apiTokenId: string | null;

  @Column({ type: 'uuid', nullable: true })
  workspaceId: string | null;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  /** what the event is about: `user`, `api_token`, `workspace_member`, `webhook`, … */
  @Column({ type: 'varchar', length: 40, nullable: true })
  targetType: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  targetId: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ipAddress: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent: string | null;

  /** a small object of names and ids; never a secret */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata: Record<string, unknown>;
}
