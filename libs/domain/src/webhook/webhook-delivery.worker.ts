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
import type { Webhook } from './webhook.entity';
import { ClaimedDelivery, WebhookLogRow, WebhookRepository } from './webhook.repository';

/** How long a process trusts its copy of a webhook (its URL, switch and secret) while sending. */
const HOOK_CACHE_MS = 1000;
/** Attempts recorded in one transaction at most. */
const RECORD_BATCH = 200;
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

/** One finished attempt, waiting to be recorded. */
interface Attempted {
  log: WebhookLogRow;
  row: ClaimedDelivery;
  ok: boolean;
  retry: boolean;
  attempts: number;
  delay: number;
  error: string | null;
}

/**
 * Sends the outbox (`webhook_deliveries`) from inside the server process, as the worker
 * `webhook-deliveries` of the job runner (`JobRunner`). A round claims due rows with `FOR UPDATE
 * SKIP LOCKED` (several processes on one PostgreSQL never take the same row) and leases them by
 * moving `next_attempt_at` past the attempt's timeout, commits, then sends outside any transaction:
 * a process that dies mid-send leaves the row to be retried when the lease ends (at-least-once;
 * `X-Plane-Delivery` is the same on every attempt, for receivers to drop duplicates).
 *
 * Throughput and isolation: up to `WEBHOOK_CONCURRENCY` attempts are in flight per process, at most
 * `WEBHOOK_CONCURRENCY_PER_WEBHOOK` of them to one webhook (the claim skips a webhook at its share),
 * and the round claims again as attempts finish (or every `WEBHOOK_POLL_INTERVAL_MS` while any is
 * in flight), so a receiver that takes the whole timeout holds only its own share and never
 * delays the others. Connections are kept alive per checked address. Finished attempts are
 * recorded in batches: their `webhook_logs` rows and outbox updates in one transaction.
 *
 * 2xx delivers. Network errors, timeouts, 5xx and 429 are retried with `backoffMs` (a 429's
 * `Retry-After` is honoured up to `WEBHOOK_BACKOFF_MAX_MS`) until `WEBHOOK_MAX_ATTEMPTS`; any other
 * status, and a URL the guard now refuses, fails the delivery at once. `WEBHOOK_DEACTIVATE_AFTER`
 * consecutive failed deliveries switch the webhook off (`is_active = false`); deliveries of a
 * webhook that is off or deleted are discarded (a process trusts its copy of a webhook for a
 * second). Finished rows are deleted after 7 days (their attempts stay in `webhook_logs`).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');
  private prunedAt = 0;
  private signal: AbortSignal = new AbortController().signal;
  /** webhook id → attempts in flight in this process */
  private readonly busy = new Map<string, number>();
  private inFlight = 0;
  /** finished since the last claim, and the waiter a round sleeps on */
  private finishedSinceClaim = 0;
  private wake: (() => void) | null = null;
  private readonly hooks = new Map<string, { at: number; hook: Webhook | null; secret: string | null }>();
  private readonly toRecord: Array<{ item: Attempted; resolve: () => void; reject: (e: unknown) => void }> = [];
  private recording = false;

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

  /**
   * One round: claims due deliveries up to the free share and attempts each, claiming again as
   * attempts finish (after a quarter of `WEBHOOK_CONCURRENCY` of them, or every poll interval),
   * until nothing is due and nothing is in flight. Returns how many were attempted.
   */
  async poll(): Promise<number> {
    const w = this.config.webhooks;
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.repo.pruneFinishedDeliveries(KEEP_FINISHED_MS);
    }
    const leaseMs = w.timeoutMs + 30_000;
    const refill = Math.max(1, Math.floor(w.concurrency / 4));
    const sends = new Set<Promise<void>>();
    let handled = 0;
    try {
      while (!this.signal.aborted) {
        const free = w.concurrency - this.inFlight;
        if (free > 0) {
          this.finishedSinceClaim = 0;
          const rows = await this.repo.claimDueDeliveries(free, leaseMs, w.concurrencyPerWebhook, this.busy);
          handled += rows.length;
          for (const row of rows) {
            const sent = this.start(row);
            sends.add(sent);
            void sent.finally(() => sends.delete(sent));
          }
        }
        if (this.inFlight === 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, w.pollIntervalMs);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.wake = () => {
            if (this.finishedSinceClaim >= refill || this.inFlight === 0 || this.signal.aborted) {
              this.wake = null;
              done();
            }
          };
        });
        this.wake = null;
      }
    } finally {
      await Promise.all(sends);
    }
    return handled;
  }

  /** Attempts one claimed row with its share counted; settles once the attempt is recorded. */
  private async start(row: ClaimedDelivery): Promise<void> {
    this.inFlight++;
    this.busy.set(row.webhook_id, (this.busy.get(row.webhook_id) ?? 0) + 1);
    let recorded: Promise<void> | null = null;
    try {
      const item = await this.attempt(row);
      if (item) recorded = this.record(item);
    } catch (err) {
      this.logger.error(`delivery ${row.id} failed: ${(err as Error).message}`);
    } finally {
      this.inFlight--;
      const n = (this.busy.get(row.webhook_id) ?? 1) - 1;
      if (n > 0) this.busy.set(row.webhook_id, n);
      else this.busy.delete(row.webhook_id);
      this.finishedSinceClaim++;
      this.wake?.();
    }
    if (recorded)
      await recorded.catch((err) => this.logger.error(`delivery ${row.id} not recorded: ${(err as Error).message}`));
  }

  /** The webhook and its opened secret, read at most once a `HOOK_CACHE_MS` per process. */
  private async hook(id: string): Promise<{ hook: Webhook | null; secret: string | null }> {
    const cached = this.hooks.get(id);
    if (cached && Date.now() - cached.at < HOOK_CACHE_MS) return cached;
    const hook = await this.repo.findById(id);
    const entry = { at: Date.now(), hook, secret: hook ? this.webhooks.openSecret(hook) : null };
    if (this.hooks.size > 10_000) this.hooks.clear();
    this.hooks.set(id, entry);
    return entry;
  }

  /** Sends one delivery; what to record, or null when there is nothing to record (discarded, or cut off by the shutdown). */
  private async attempt(row: ClaimedDelivery): Promise<Attempted | null> {
    const w = this.config.webhooks;
    const { hook, secret } = await this.hook(row.webhook_id);
    if (!hook || !hook.isActive || hook.deletedAt) {
      await this.repo.discardDelivery(row.id);
      this.metrics?.webhookDeliveries.inc({ status: 'discarded' });
      return null;
    }
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
        if (this.signal.aborted) return null; // cut off by the shutdown: the lease ends and another poll retries it
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
    return {
      row,
      ok,
      retry,
      attempts,
      delay,
      error: ok ? null : outcome.kind === 'response' ? `HTTP ${outcome.status}` : outcome.error,
      log: {
        workspace_id: row.workspace_id,
        webhook_id: row.webhook_id,
        delivery_id: row.id,
        event_type: row.event,
        request_method: 'POST',
        request_headers: JSON.stringify(stored),
        request_body: row.body,
        response_status: outcome.kind === 'response' ? String(outcome.status) : null,
        // a text column holds no NUL character (PostgreSQL refuses it)
        response_headers: outcome.kind === 'response' ? JSON.stringify(outcome.headers).replace(/\\u0000/g, '') : null,
        response_body: (outcome.kind === 'response' ? outcome.body : outcome.error).replace(/\0/g, ''),
        retry_count: attempts - 1,
      },
    };
  }

  /** Queues a finished attempt for the recorder; settles when its transaction has committed. */
  private record(item: Attempted): Promise<void> {
    return new Promise((resolve, reject) => {
      this.toRecord.push({ item, resolve, reject });
      if (!this.recording) void this.recordQueued();
    });
  }

  /** Records the queued attempts, one transaction per batch, while any are queued (one recorder at a time). */
  private async recordQueued(): Promise<void> {
    this.recording = true;
    try {
      while (this.toRecord.length) {
        const batch = this.toRecord.splice(0, RECORD_BATCH);
        try {
          await this.recordBatch(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (err) {
          if (batch.length === 1) {
            batch[0].reject(err);
            continue;
          }
          // one attempt that cannot be written does not hold back the others: each alone
          for (const b of batch) await this.recordBatch([b.item]).then(b.resolve, b.reject);
        }
      }
    } finally {
      this.recording = false;
    }
  }

  /**
   * One transaction: the attempts' logs, their outbox rows finished or rescheduled, and per
   * webhook, in the batch's order, a success resetting its consecutive failures and the failed
   * deliveries after its last success counted (possibly switching it off).
   */
  private async recordBatch(items: Attempted[]): Promise<void> {
    const w = this.config.webhooks;
    const perHook = new Map<string, { reset: boolean; failed: number }>();
    for (const it of items) {
      const h = perHook.get(it.row.webhook_id) ?? { reset: false, failed: 0 };
      if (it.ok) {
        h.reset = true;
        h.failed = 0;
      } else if (!it.retry) h.failed++;
      perHook.set(it.row.webhook_id, h);
    }
    const deactivated: string[] = [];
    await this.dataSource.transaction(async (em) => {
      await this.repo.recordAttempts(
        em,
        items.map((it) => it.log),
        items.map((it) => ({
          id: it.row.id,
          status: it.ok ? 'delivered' : it.retry ? 'pending' : 'failed',
          attempts: it.attempts,
          error: it.error,
          delay: it.retry ? it.delay : null,
        })),
      );
      await this.repo.resetFailuresOf(
        em,
        [...perHook].filter(([, h]) => h.reset).map(([id]) => id),
      );
      for (const [id, h] of perHook) {
        if (!h.failed) continue;
        const isActive = await this.repo.countFailure(em, id, w.deactivateAfter, h.failed);
        if (isActive === false) deactivated.push(id);
      }
    });
    for (const it of items) {
      this.metrics?.webhookAttempts.inc({ result: it.ok ? 'success' : 'error' });
      if (it.ok || !it.retry) this.metrics?.webhookDeliveries.inc({ status: it.ok ? 'delivered' : 'failed' });
    }
    for (const id of deactivated) {
      const workspaceId = items.find((it) => it.row.webhook_id === id)!.row.workspace_id;
      this.hooks.delete(id);
      this.outbox.invalidate(workspaceId);
      this.logger.warn(`webhook ${id} switched off after ${w.deactivateAfter} consecutive failed deliveries`);
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
