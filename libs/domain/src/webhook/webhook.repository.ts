import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { hotTxQuery } from '../kernel/hot-query';
import { jobTransaction } from '../kernel/job-limits';
import type { WebhookSubscription } from './webhook-events';
import { Webhook } from './webhook.entity';
import { WebhookLog } from './webhook-log.entity';
import { WebhookDelivery } from './webhook-delivery.entity';

/** `$1` workspace id: its active webhooks and their event switches (the outbox's subscriber check). A hot statement. */
export const SQL_WEBHOOK_SUBSCRIPTIONS = `SELECT id, project, issue, module, cycle, issue_comment FROM webhooks
WHERE workspace_id = $1 AND is_active AND deleted_at IS NULL`;

/** A claimed outbox row (`webhook_deliveries`). */
export interface ClaimedDelivery {
  id: string;
  workspace_id: string;
  webhook_id: string;
  event: string;
  action: string;
  body: string;
  attempts: number;
}

/** A delivery attempt's `webhook_logs` row as `recordAttempts` writes it (snake_case columns). */
export interface WebhookLogRow {
  workspace_id: string;
  webhook_id: string;
  delivery_id: string;
  event_type: string;
  request_method: string;
  request_headers: string;
  request_body: string;
  response_status: string | null;
  response_headers: string | null;
  response_body: string;
  retry_count: number;
}

/** node-postgres answers an UPDATE … RETURNING as [rows, count]; PGlite as rows. */
function returnedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/**
 * All SQL of the webhook feature: webhooks and their logs, the outbox (`webhook_deliveries`: claim
 * with `FOR UPDATE SKIP LOCKED`, finish, retry, prune) and the subscriptions lookup. What a delivery
 * renders is read through the owners' doors (`WebhookReads`). Methods that take an `EntityManager`
 * run in the caller's transaction.
 */
@Injectable()
export class WebhookRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  // ---- webhooks and logs ---------------------------------------------------------------------

  /** A page of the workspace's webhooks, newest first. */
  listPage(workspaceId: string, page: PageRequest): Promise<Page<Webhook>> {
    const qb = this.dataSource
      .getRepository(Webhook)
      .createQueryBuilder('w')
      .where('w.workspaceId = :workspaceId', { workspaceId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** A page of the webhook's delivery attempts, newest first. */
  listLogsPage(webhookId: string, page: PageRequest): Promise<Page<WebhookLog>> {
    const qb = this.dataSource
      .getRepository(WebhookLog)
      .createQueryBuilder('l')
      .where('l.webhookId = :webhookId', { webhookId });
    return paginate(qb, page, { order: 'DESC' });
  }

  /** The workspace's active webhooks and their switches (`SQL_WEBHOOK_SUBSCRIPTIONS`, a named statement in `em`'s transaction). */
  async findSubscriptions(em: EntityManager, workspaceId: string): Promise<WebhookSubscription[]> {
    return (await hotTxQuery(em, SQL_WEBHOOK_SUBSCRIPTIONS, [workspaceId])) as WebhookSubscription[];
  }

  // ---- the outbox -----------------------------------------------------------------------------

  /**
   * Deletes finished (not pending) deliveries that finished over `keepMs` ago: a week's worth at
   * once, so under the background jobs' limits (`jobTransaction`), not a request's.
   */
  async pruneFinishedDeliveries(keepMs: number): Promise<void> {
    await jobTransaction(this.dataSource, (em) =>
      em.query(
        `DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < now() - ($1::int * interval '1 millisecond')`,
        [keepMs],
      ),
    );
  }

  /**
   * Claims up to `limit` due pending deliveries, oldest due first, skipping rows another process
   * holds (`FOR UPDATE SKIP LOCKED`), and leases them by moving `next_attempt_at` `leaseMs` ahead;
   * one statement, committed at once. At most `perWebhook` in flight per webhook: `busy` (webhook
   * id → attempts this process has in flight) lowers a webhook's share, and a webhook at its share
   * is skipped, so the backlog of a slow receiver never fills a claim. The per-webhook cut is made
   * over the `scan` oldest due rows of the other webhooks.
   */
  async claimDueDeliveries(
    limit: number,
    leaseMs: number,
    perWebhook = limit,
    busy: ReadonlyMap<string, number> = new Map(),
    scan = limit * 4,
  ): Promise<ClaimedDelivery[]> {
    const held = JSON.stringify([...busy].map(([webhook_id, n]) => ({ webhook_id, n })));
    const result: unknown = await this.dataSource.query(
      `WITH busy AS (SELECT * FROM jsonb_to_recordset($2::jsonb) AS b(webhook_id uuid, n int)),
            due AS (SELECT id, webhook_id,
                           row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS rn
                      FROM (SELECT id, webhook_id, next_attempt_at FROM webhook_deliveries
                             WHERE status = 'pending' AND next_attempt_at <= now()
                               AND webhook_id NOT IN (SELECT webhook_id FROM busy WHERE n >= $3)
                             ORDER BY next_attempt_at LIMIT $5) oldest),
            pick AS (SELECT due.id FROM due LEFT JOIN busy ON busy.webhook_id = due.webhook_id
                      WHERE due.rn <= $3 - COALESCE(busy.n, 0))
       UPDATE webhook_deliveries SET next_attempt_at = now() + ($1::int * interval '1 millisecond')
        WHERE id IN (SELECT id FROM webhook_deliveries
                      WHERE id IN (SELECT id FROM pick) AND status = 'pending' AND next_attempt_at <= now()
                      ORDER BY next_attempt_at LIMIT $4
                      FOR UPDATE SKIP LOCKED)
        RETURNING id, workspace_id, webhook_id, event, action, body, attempts`,
      [leaseMs, held, perWebhook, limit, scan],
    );
    return returnedRows<ClaimedDelivery>(result);
  }

  /**
   * The outbox's depth for the metrics: pending deliveries, split into those due now and those
   * waiting (a retry's backoff, or leased by a worker sending them), and the age in seconds of the
   * oldest due one (0 when none is due).
   */
  async outboxDepth(): Promise<{ due: number; waiting: number; oldestDueSeconds: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE next_attempt_at <= now())::int AS due,
              count(*) FILTER (WHERE next_attempt_at > now())::int AS waiting,
              COALESCE(EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)::float8 AS oldest
         FROM webhook_deliveries WHERE status = 'pending'`,
    )) as { due: number; waiting: number; oldest: number }[];
    return { due: Number(row.due), waiting: Number(row.waiting), oldestDueSeconds: Number(row.oldest) };
  }

  /** Discards a delivery (its webhook is off or gone). */
  async discardDelivery(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'discarded', finished_at = now() WHERE id = $1`,
      [id],
    );
  }

  /**
   * Records finished attempts in `em`'s transaction: their logs in one insert, and each delivery
   * finished (`delivered`/`failed`, `delay` null) or scheduled again `delay` ms from now, in one update.
   */
  async recordAttempts(
    em: EntityManager,
    logs: WebhookLogRow[],
    outcomes: Array<{
      id: string;
      status: 'delivered' | 'failed' | 'pending';
      attempts: number;
      error: string | null;
      delay: number | null;
    }>,
  ): Promise<void> {
    if (logs.length)
      await em.query(
        `INSERT INTO webhook_logs (created_at, updated_at, workspace_id, webhook_id, delivery_id, event_type,
                request_method, request_headers, request_body, response_status, response_headers, response_body, retry_count)
         SELECT clock_timestamp(), clock_timestamp(), l.workspace_id, l.webhook_id, l.delivery_id, l.event_type,
                l.request_method, l.request_headers, l.request_body, l.response_status, l.response_headers, l.response_body, l.retry_count
           FROM jsonb_to_recordset($1::jsonb) AS l(workspace_id uuid, webhook_id uuid, delivery_id uuid, event_type varchar,
                request_method varchar, request_headers text, request_body text, response_status text,
                response_headers text, response_body text, retry_count smallint)`,
        [JSON.stringify(logs)],
      );
    if (!outcomes.length) return;
    await em.query(
      `UPDATE webhook_deliveries d
          SET status = o.status, attempts = o.attempts, last_error = o.error,
              finished_at = CASE WHEN o.status = 'pending' THEN NULL ELSE now() END,
              next_attempt_at = CASE WHEN o.status = 'pending' THEN now() + (o.delay * interval '1 millisecond')
                                     ELSE d.next_attempt_at END
         FROM jsonb_to_recordset($1::jsonb) AS o(id uuid, status varchar, attempts int, error text, delay int)
        WHERE d.id = o.id`,
      [JSON.stringify(outcomes)],
    );
  }

  /** Resets the consecutive failure counts of these webhooks (only writes those that are not 0 already). */
  async resetFailuresOf(em: EntityManager, webhookIds: string[]): Promise<void> {
    if (!webhookIds.length) return;
    await em.query(
      `UPDATE webhooks SET failure_count = 0
        WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb)) AND failure_count <> 0`,
      [JSON.stringify(webhookIds)],
    );
  }

  /**
   * Counts `failed` more failed deliveries of a webhook (1 by default) and switches it off when that
   * makes `deactivateAfter` in a row; returns `is_active` afterwards (undefined for an unknown webhook).
   */
  async countFailure(
    em: EntityManager,
    webhookId: string,
    deactivateAfter: number,
    failed = 1,
  ): Promise<boolean | undefined> {
    const res: unknown = await em.query(
      `UPDATE webhooks SET failure_count = failure_count + $3,
              is_active = CASE WHEN failure_count + $3 >= $2 THEN false ELSE is_active END
        WHERE id = $1 RETURNING is_active`,
      [webhookId, deactivateAfter, failed],
    );
    return returnedRows<{ is_active: boolean }>(res)[0]?.is_active;
  }

  /**
   * Deletes up to `limit` webhook logs created at or before `before`, oldest first; how many
   * (`delete-api-logs`).
   */
  async deleteLogsBefore(before: Date, limit: number): Promise<number> {
    const result: unknown = await this.dataSource.query(
      `DELETE FROM webhook_logs WHERE id IN (
         SELECT id FROM webhook_logs WHERE created_at <= $1::timestamptz ORDER BY created_at LIMIT $2)
       RETURNING 1 AS x`,
      [before.toISOString(), limit],
    );
    return returnedRows(result).length;
  }

  /** The webhook by id (any workspace), or null. */
  findById(id: string): Promise<Webhook | null> {
    return this.dataSource.getRepository(Webhook).findOneBy({ id });
  }

  /** The workspace's webhook by id, or null. */
  findInWorkspace(workspaceId: string, id: string): Promise<Webhook | null> {
    return this.dataSource.getRepository(Webhook).findOneBy({ id, workspaceId });
  }

  /** Inserts a webhook (`save`: the returned row has its generated columns; a taken url is a unique violation). */
  insertWebhook(em: EntityManager, row: Partial<Webhook>): Promise<Partial<Webhook> & Webhook> {
    return em.getRepository(Webhook).save(row) as Promise<Partial<Webhook> & Webhook>;
  }

  /** Updates one webhook. */
  async updateWebhook(em: EntityManager, id: string, patch: Partial<Webhook>): Promise<void> {
    await em.getRepository(Webhook).update({ id }, patch as never);
  }

  /** Deletes one webhook (its logs and undelivered events go with it, by their foreign keys). */
  async deleteWebhook(em: EntityManager, id: string): Promise<void> {
    await em.getRepository(Webhook).delete({ id });
  }

  /** Queues deliveries (the outbox rows) in `em`'s transaction. */
  async insertDeliveries(em: EntityManager, rows: Array<Partial<WebhookDelivery>>): Promise<void> {
    await em.insert(WebhookDelivery, rows as never);
  }
}
