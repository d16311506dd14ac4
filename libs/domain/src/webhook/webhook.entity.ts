import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
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
