import { APP_CONFIG, AppConfig, MeridianError, Metrics } from '#common';
import { Inject, Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { JobRunner } from '../kernel/jobs/job-runner';
import { WebhookTarget } from './url-guard';
import { sendWebhook, SendOutcome } from './webhook-sender';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookService } from './webhook.service';
import { ClaimedDelivery, WebhookRepository } from './webhook.repository';

/** Rows claimed per poll. */
const BATCH = 20;
/** Finished outbox rows are kept this long (the attempts stay in `webhook_logs`), pruned about hourly. */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
/** Headers whose values are secrets-derived and never stored in the logs. */
const REDACTED = ['X-Plane-Signature', 'X-Plane-Timestamp-Signature'];

/** `X-Plane-Signature`: lowercase hex HMAC-SHA256 of the exact body with the webhook's secret (Plane's). */
export function signWebhookBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

/**
 * Delay before the next attempt after `attempts` failed ones: `base × 3^(attempts−1)` capped at
 * `max`, times a random factor in [0.8, 1.2) so that retries of many deliveries spread out. With
 * the defaults: about 10 s, 30 s, 1.5 min, 4.5 min, 13.5 min, 40 min, then 1 h.
 */
export function backoffMs(attempts: number, base: number, max: number, random = Math.random()): number {
  return Math.round(Math.min(base * 3 ** Math.max(0, attempts - 1), max) * (0.8 + 0.4 * random));
}

/**
 * Sends the outbox (`webhook_deliveries`) from inside the server process, as the worker
 * `webhook-deliveries` of the job runner (`JobRunner`). Every `WEBHOOK_POLL_INTERVAL_MS` it claims due rows with `FOR UPDATE SKIP LOCKED` (several processes
 * on one PostgreSQL never take the same row) and leases them by moving `next_attempt_at` past the
 * attempt's timeout, commits, then sends outside any transaction: a process that dies mid-send
 * leaves the row to be retried when the lease ends (at-least-once; `X-Plane-Delivery` is the same
 * on every attempt, for receivers to drop duplicates). Each attempt is written to `webhook_logs`.
 *
 * 2xx delivers. Network errors, timeouts, 5xx and 429 are retried with `backoffMs` (a 429's
 * `Retry-After` is honoured up to `WEBHOOK_BACKOFF_MAX_MS`) until `WEBHOOK_MAX_ATTEMPTS`; any other
 * status, and a URL the guard now refuses, fails the delivery at once. `WEBHOOK_DEACTIVATE_AFTER`
 * consecutive failed deliveries switch the webhook off (`is_active = false`); deliveries of a
 * webhook that is off or deleted are discarded. Finished rows are deleted after 7 days (their attempts stay in `webhook_logs`).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  private prunedAt = 0;
  private signal: AbortSignal = new AbortController().signal;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly webhooks: WebhookService,
    private readonly outbox: WebhookOutbox,
    private readonly repo: WebhookRepository,
    private readonly runner: JobRunner,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /**
   * Puts the worker on the process's job runner (`webhook-deliveries`, every
   * `WEBHOOK_POLL_INTERVAL_MS`, unless `WEBHOOK_WORKER=false`; the runner's shutdown lets sends in
   * flight finish for a few seconds, so a rolling restart does not send them twice, then aborts
   * the rest, whose rows are retried after their lease). Registers the outbox's gauges (README
   * "Metrics"), read from the database at each scrape, so every replica reports the shared outbox:
   * `meridian_webhook_outbox_pending{state="due"|"waiting"}` and
   * `meridian_webhook_outbox_oldest_due_seconds`.
   */
  onModuleInit(): void {
    this.runner.addWorker({
      name: 'webhook-deliveries',
      intervalMs: this.config.webhooks.pollIntervalMs,
      enabled: this.config.webhooks.worker,
      drain: false,
      poll: (signal) => {
        this.signal = signal;
        return this.poll();
      },
    });
    this.metrics?.gauge(
      'meridian_webhook_outbox_pending',
      'Pending webhook deliveries in the shared outbox: due now, or waiting (backoff or leased)',
      ['state'],
      async () => {
        const d = await this.repo.outboxDepth();
        return [
          { labels: { state: 'due' }, value: d.due },
          { labels: { state: 'waiting' }, value: d.waiting },
        ];
      },
    );
    this.metrics?.gauge(
      'meridian_webhook_outbox_oldest_due_seconds',
      'How long the oldest due webhook delivery has been waiting for a worker, in seconds',
      [],
      async () => [{ labels: {}, value: (await this.repo.outboxDepth()).oldestDueSeconds }],
    );
  }

  /** One round: claims due deliveries and attempts each. Returns how many were attempted. */
  async poll(): Promise<number> {
    const w = this.config.webhooks;
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.repo.pruneFinishedDeliveries(KEEP_FINISHED_MS);
    }
    const leaseMs = w.timeoutMs + 30_000;
    const rows = await this.repo.claimDueDeliveries(BATCH, leaseMs);
    await Promise.all(
      rows.map((row) =>
        this.attempt(row).catch((err) => this.logger.error(`delivery ${row.id} failed: ${(err as Error).message}`)),
      ),
    );
    return rows.length;
  }

  private async attempt(row: ClaimedDelivery): Promise<void> {
    const w = this.config.webhooks;
    const hook = await this.repo.findById(row.webhook_id);
    if (!hook || !hook.isActive || hook.deletedAt) {
      await this.repo.discardDelivery(row.id);
      this.metrics?.webhookDeliveries.inc({ status: 'discarded' });
      return;
    }
    const secret = this.webhooks.openSecret(hook);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'Autopilot',
      'X-Plane-Delivery': row.id,
      'X-Plane-Event': row.event,
    };
    if (secret) {
      headers['X-Plane-Signature'] = signWebhookBody(secret, row.body);
      if (w.timestampSignature) {
        const ts = String(Math.floor(Date.now() / 1000));
        headers['X-Plane-Timestamp'] = ts;
        headers['X-Plane-Timestamp-Signature'] = signWebhookBody(secret, `${ts}.${row.body}`);
      }
    }
    let outcome: SendOutcome;
    let permanent = false;
    if (!secret) {
      outcome = { kind: 'error', error: 'The webhook secret cannot be read (SECRET_KEY changed?): regenerate it.' };
      permanent = true;
    } else {
      let target: WebhookTarget | null = null;
      try {
        target = await this.webhooks.guard.check(hook.url);
      } catch (err) {
        if (!(err instanceof MeridianError)) throw err;
        outcome = { kind: 'error', error: `${err.code}: ${err.message}` };
        permanent = err.code !== 'WEBHOOK_URL_UNRESOLVABLE';
      }
      if (target) {
        outcome = await sendWebhook(target, headers, row.body, w.timeoutMs, this.signal);
        if (this.signal.aborted) return; // cut off by the shutdown: the lease ends and another poll retries it
      }
    }
    outcome = outcome!;
    const attempts = row.attempts + 1;
    const ok = outcome.kind === 'response' && outcome.status >= 200 && outcome.status < 300;
    const retryable = !permanent && (outcome.kind === 'error' || outcome.status === 429 || outcome.status >= 500);
    const retry = !ok && retryable && attempts < w.maxAttempts;
    let delay = retry ? backoffMs(attempts, w.backoffBaseMs, w.backoffMaxMs) : 0;
    if (retry && outcome.kind === 'response' && outcome.status === 429)
      delay = Math.max(delay, Math.min(retryAfterMs(outcome.headers['retry-after']), w.backoffMaxMs));
    const stored = { ...headers };
    for (const h of REDACTED) if (stored[h]) stored[h] = '[redacted]';

    let deactivated = false;
    await this.dataSource.transaction(async (em) => {
      await this.repo.insertLog(em, {
        workspaceId: row.workspace_id,
        webhookId: row.webhook_id,
        deliveryId: row.id,
        eventType: row.event,
        requestMethod: 'POST',
        requestHeaders: JSON.stringify(stored),
        requestBody: row.body,
        responseStatus: outcome.kind === 'response' ? String(outcome.status) : null,
        responseHeaders: outcome.kind === 'response' ? JSON.stringify(outcome.headers) : null,
        responseBody: outcome.kind === 'response' ? outcome.body : outcome.error,
        retryCount: attempts - 1,
      });
      const error = ok ? null : outcome.kind === 'response' ? `HTTP ${outcome.status}` : outcome.error;
      if (ok || !retry) {
        await this.repo.finishDelivery(em, row.id, ok ? 'delivered' : 'failed', attempts, error);
      } else {
        await this.repo.retryDelivery(em, row.id, attempts, error, delay);
      }
      if (ok) {
        await this.repo.resetFailures(em, row.webhook_id);
      } else if (!retry) {
        const isActive = await this.repo.countFailure(em, row.webhook_id, w.deactivateAfter);
        deactivated = isActive === false && hook.isActive;
      }
    });
    this.metrics?.webhookAttempts.inc({ result: ok ? 'success' : 'error' });
    if (ok || !retry) this.metrics?.webhookDeliveries.inc({ status: ok ? 'delivered' : 'failed' });
    if (deactivated) {
      this.outbox.invalidate(row.workspace_id);
      this.logger.warn(
        `webhook ${row.webhook_id} switched off after ${w.deactivateAfter} consecutive failed deliveries`,
      );
    }
  }
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds (0 when absent or unreadable). */
function retryAfterMs(value: string | string[] | undefined): number {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return 0;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
}
