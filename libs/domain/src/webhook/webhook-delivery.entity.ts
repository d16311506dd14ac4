import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { Webhook } from './webhook.entity';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'discarded';

/**
 * The outbox: one row per (webhook, event), written in the transaction of the change it reports.
 * `body` is the exact JSON sent on every attempt (rendered at commit time); `id` is the
 * `X-Plane-Delivery` header, the same on every retry. The worker claims due rows
 * (`status = 'pending' AND next_attempt_at <= now()`) with `FOR UPDATE SKIP LOCKED`.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('ix_webhook_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'uuid' })
  workspaceId: string;

  @Index('ix_webhook_deliveries_webhook')
  @Column({ type: 'uuid' })
  webhookId: string;

  @ManyToOne(() => Webhook, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'webhook_id' })
  webhook?: Webhook;

  @Column({ type: 'varchar', length: 32 })
  event: string;

  @Column({ type: 'varchar', length: 16 })
  action: string;

  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: DeliveryStatus;

  /** attempts made so far */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
