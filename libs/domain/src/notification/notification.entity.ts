import { Column, Entity, Index } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';

/**
 * An in-app notification for one receiver (Plane's `Notification`): something happened to a work
 * item the receiver is assigned to, subscribed to, or mentioned in. `data` carries the work item
 * and the history row that caused it. Written in the same transaction as the change.
 */
@Entity({ name: 'notifications' })
// the inbox's pages (receiver_id, workspace_id, created_at, id) with the filters' columns INCLUDEd, so
// its counts are index-only scans: TypeORM cannot declare INCLUDE, migration NotificationInboxIndex writes it
@Index('ix_notifications_inbox', { synchronize: false })
export class Notification extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  /** the work item's id */
  @Column({ type: 'uuid', nullable: true })
  entityIdentifier: string | null;

  @Column({ type: 'varchar', length: 255, default: 'issue' })
  entityName: string;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'jsonb', nullable: true })
  message: Record<string, unknown> | null;

  @Column({ type: 'text', default: '<p></p>' })
  messageHtml: string;

  @Column({ type: 'text', nullable: true })
  messageStripped: string | null;

  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  /** `in_app:issue_activities:assigned|created|subscribed|mentioned` */
  @Column({ type: 'varchar', length: 255 })
  sender: string;

  @Column({ type: 'uuid', nullable: true })
  triggeredById: string | null;

  @Column({ type: 'uuid' })
  receiverId: string;

  @Column({ type: 'timestamptz', nullable: true })
  readAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  snoozedTill: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  archivedAt: Date | null;
}
