import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { User } from '../user';

/**
 * Which notification emails a user wants (Plane's `UserNotificationPreference`,
 * `plane/db/models/notification.py`): one row per user (Plane's `workspace` and `project` are
 * always null for it), created on first use with every kind on. Meridian sends no notification
 * emails, so the row is stored and served only (docs/decisions.md).
 */
@Entity({ name: 'user_notification_preferences' })
@Index('uq_user_notification_preferences_user_live', ['userId'], {
  unique: true,
  where: '"workspace_id" IS NULL AND "project_id" IS NULL AND "deleted_at" IS NULL',
})
export class UserNotificationPreference extends BaseEntity {
  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: User;

  @Column({ type: 'uuid', nullable: true })
  workspaceId: string | null;

  @Column({ type: 'uuid', nullable: true })
  projectId: string | null;

  @Column({ type: 'boolean', default: true })
  propertyChange: boolean;

  @Column({ type: 'boolean', default: true })
  stateChange: boolean;

  @Column({ type: 'boolean', default: true })
  comment: boolean;

  @Column({ type: 'boolean', default: true })
  mention: boolean;

  @Column({ type: 'boolean', default: true })
  issueCompleted: boolean;
}
