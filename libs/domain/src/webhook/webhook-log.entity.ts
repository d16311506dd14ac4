import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Workspace } from '../workspace';
import { Webhook } from './webhook.entity';

/**
 * One delivery attempt (Plane's `webhook_logs`). `requestHeaders` never holds the signature
 * (`X-Plane-Signature` is stored as `[redacted]`); `responseStatus` is null when no response came.
 */
@Entity({ name: 'webhook_logs' })
@Index('ix_webhook_logs_webhook', ['webhookId', 'createdAt'])
@Index('ix_webhook_logs_created', ['createdAt'])
export class WebhookLog extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'uuid' })
  webhookId: string;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id' })
  webhook?: Webhook;

  /** the delivery this attempt belongs to (`X-Plane-Delivery`) */
  @Column({ type: 'uuid', nullable: true })
  deliveryId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  eventType: string | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  requestMethod: string | null;

  @Column({ type: 'text', nullable: true })
  requestHeaders: string | null;

  @Column({ type: 'text', nullable: true })
  requestBody: string | null;

  @Column({ type: 'text', nullable: true })
  responseStatus: string | null;

  @Column({ type: 'text', nullable: true })
  responseHeaders: string | null;

  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'smallint', default: 0 })
  retryCount: number;
}
