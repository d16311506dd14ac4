import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One email-notification row per receiver and work item history row (Plane's `EmailNotificationLog`,
 * `plane/db/models/notification.py`), written in the transaction of the change that causes it.
 * `EmailNotificationService.sendPending` stacks the pending rows (`processed_at IS NULL`, due:
 * `next_attempt_at <= now`) into one mail per receiver and work item.
 *
 * - sent: `sent_at` and `processed_at` set;
 * - given up after `attempts` failed sends, or dropped (the receiver may no longer read the work
 *   item, it was deleted, or no SMTP server is configured): `processed_at` set, `sent_at` null,
 *   `last_error` says why;
 * - waiting for a retry: `attempts > 0`, `next_attempt_at` in the future (also while a sender holds
 *   the row: it moves `next_attempt_at` past its lease when it claims it).
 *
 * Finished rows are deleted 30 days after they were processed.
 *
 * `data` is Plane's: `{issue: {id}, issue_activity: {id, verb, field, actor, new_value, old_value,
 * issue_comment, old_identifier, new_identifier, activity_time}}`; `field` is `mention` for a mention.
 */
@Entity({ name: 'email_notification_logs' })
@Index('ix_email_notification_logs_due', ['nextAttemptAt'], { where: '"processed_at" IS NULL' })
@Index('ix_email_notification_logs_processed', ['processedAt'], { where: '"processed_at" IS NOT NULL' })
export class EmailNotificationLog {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid' })
  projectId: string;

  @Index('ix_email_notification_logs_receiver')
  @Column({ type: 'uuid' })
  receiverId: string;

  @Column({ type: 'uuid' })
  triggeredById: string;

  /** the work item's id */
  @Column({ type: 'uuid' })
  entityIdentifier: string;

  @Column({ type: 'varchar', length: 255, default: 'issue' })
  entityName: string;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ type: 'timestamptz', nullable: true })
  processedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  sentAt: Date | null;

  /** failed sends so far */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;
}
