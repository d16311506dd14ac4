import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { BaseEntity } from '../kernel/base.entity';
import type { Workspace } from '../workspace';

/** The events a webhook can subscribe to (Plane's switches) and the ones Meridian sends. */
export const WEBHOOK_SWITCHES = ['project', 'issue', 'module', 'cycle', 'issue_comment'] as const;
export type WebhookSwitch = (typeof WEBHOOK_SWITCHES)[number];
export type WebhookEvent = WebhookSwitch | 'intake_issue';

/**
 * A workspace webhook (Plane's `webhooks` table, reference `plane/db/models/webhook.py`). Unlike
 * Plane, the signing secret is stored sealed (`SecretBox`, key from `SECRET_KEY`), never in clear;
 * `failureCount` counts consecutive failed deliveries (reset by a success) for deactivation.
 */
@Entity({ name: 'webhooks' })
@Index('uq_webhooks_workspace_url_live', ['workspaceId', 'url'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('ix_webhooks_workspace_active', ['workspaceId'], { where: '"is_active" AND "deleted_at" IS NULL' })
export class Webhook extends BaseEntity {
  @Column({ type: 'uuid' })
  workspaceId: string;

  @ManyToOne('Workspace', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id' })
  workspace?: Workspace;

  @Column({ type: 'varchar', length: 1024 })
  url: string;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  /** `v1:<iv>:<tag>:<ciphertext>` (SecretBox) of `plane_wh_<32 hex>` */
  @Column({ type: 'text' })
  secretSealed: string;

  @Column({ type: 'boolean', default: false })
  project: boolean;

  @Column({ type: 'boolean', default: false })
  issue: boolean;

  @Column({ type: 'boolean', default: false })
  module: boolean;

  @Column({ type: 'boolean', default: false })
  cycle: boolean;

  @Column({ type: 'boolean', default: false })
  issueComment: boolean;

  /** consecutive failed deliveries; reaching `WEBHOOK_DEACTIVATE_AFTER` switches the webhook off */
  @Column({ type: 'integer', default: 0 })
  failureCount: number;
}

/**
 * One delivery attempt (Plane's `webhook_logs`). `requestHeaders` never holds the signature
 * (`X-Plane-Signature` is stored as `[redacted]`); `responseStatus` is null when no response came.
 */
@Entity({ name: 'webhook_logs' })
@Index('ix_webhook_logs_webhook', ['webhookId', 'createdAt'])
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
