import { APP_CONFIG, AppConfig, Metrics } from '#common';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { MailService } from '../mail';
import { mentionedUserIds } from '../notification';
import { UserProfileService } from '../user';
import { ClaimedEmailLog, EmailNotificationRepository, MailUser } from './email-notification.repository';
import { MailChange, renderIssueUpdates } from './email-notification.template';

/** (receiver, work item) pairs claimed per batch, and the rows of one batch at most. */
const GROUPS_PER_BATCH = 50;
const ROWS_PER_BATCH = 500;
/** Batches per run at most (a run ends sooner when nothing is due). */
const MAX_BATCHES = 200;
/** How long a claimed row stays leased to the sender that claimed it (retried after, if that sender died). */
const LEASE_MS = 15 * 60_000;
/**
 * A batch stops starting sends this long before its lease ends (the rest are sent after the lease,
 * by whichever run claims them first): more than one send can take with MailService's time-outs.
 */
const LEASE_MARGIN_MS = 3 * 60_000;
/** Failed sends of a mail before it is given up. */
export const EMAIL_MAX_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 60_000;
const BACKOFF_MAX_MS = 3600_000;
/** Finished rows are kept this long, pruned about hourly (at most `PRUNE_LIMIT` a run). */
const KEEP_PROCESSED_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
const PRUNE_LIMIT = 10_000;

/**
 * Delay before the next attempt after `attempts` failed ones: one minute × 3^(attempts−1), at most
 * an hour, times a random factor in [0.8, 1.2): about 1, 3, 9 and 27 minutes; the fifth failure
 * gives the mail up.
 */
export function emailBackoffMs(attempts: number, random = Math.random()): number {
  return Math.round(Math.min(BACKOFF_BASE_MS * 3 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS) * (0.8 + 0.4 * random));
}

/** What one `sendPending` run did: mails sent, failed attempts (to be retried), mails given up, rows dropped unsent. */
export interface EmailNotificationRun {
  sent: number;
  failed: number;
  given_up: number;
  dropped: number;
}

/** An SMTP failure as stored and logged: nodemailer's code and the server's reply code, never credentials. */
function failure(err: unknown): string {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [
    typeof e.code === 'string' ? e.code : null,
    typeof e.responseCode === 'number' ? String(e.responseCode) : null,
    typeof e.message === 'string' ? e.message.slice(0, 300) : 'send failed',
  ];
  return parts.filter(Boolean).join(' ');
}

/**
 * Sends the work item email notifications (Plane `plane/bgtasks/email_notification_task.py`:
 * `stack_email_notification`, run every 5 minutes, and `send_email_notification`).
 *
 * `sendPending(now)` stacks the pending rows of `email_notification_logs` due at `now` into one mail
 * per receiver and work item (every change of every actor since the last run, grouped per actor;
 * Plane's subject and content: `renderIssueUpdates`), sends it through the instance's SMTP settings
 * (`MailService`), and marks the rows sent. It works in batches (`GROUPS_PER_BATCH` pairs, at most
 * `ROWS_PER_BATCH` rows) and is safe on several replicas at once: each batch is claimed with
 * `FOR UPDATE SKIP LOCKED` and leased (`LEASE_MS`) in one committed statement, so no two senders
 * mail the same rows (a sender that dies mid-batch leaves its rows to be retried after the lease).
 *
 * A failed send is retried with `emailBackoffMs` (`attempts`, `next_attempt_at`, `last_error`);
 * after `EMAIL_MAX_ATTEMPTS` failures the mail is given up. Rows whose receiver may no longer be
 * mailed (left the project, deactivated, a Guest who may not read the work item) or whose work item
 * was deleted are dropped, as are mails with nothing to show (only deleted comments); with no SMTP server configured (`EMAIL_HOST` empty) due rows are dropped
 * unsent (no notification mail goes to the development log fallback). Counted in
 * `meridian_email_notifications_sent_total`, `meridian_email_notification_failures_total`,
 * `meridian_email_notifications_given_up_total`. Finished rows are deleted after 30 days (pruned
 * about hourly by the run). Never throws for a failed send; a database error
 * ends the run with that error (its rows are retried after their lease).
 */
@Injectable()
export class EmailNotificationService {
  private readonly logger = new Logger('EmailNotifications');
  private prunedAt = 0;

  constructor(
    private readonly repo: EmailNotificationRepository,
    private readonly mail: MailService,
    private readonly people: UserProfileService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** One run (the job `send-email-notifications`, every 5 minutes); see the class. */
  async sendPending(now: Date = new Date()): Promise<EmailNotificationRun> {
    const run: EmailNotificationRun = { sent: 0, failed: 0, given_up: 0, dropped: 0 };
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.repo.pruneProcessed(new Date(Date.now() - KEEP_PROCESSED_MS), PRUNE_LIMIT);
    }
    const configured = await this.mail.isConfigured();
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const rows = await this.repo.claimDue(now, new Date(now.getTime() + LEASE_MS), GROUPS_PER_BATCH, ROWS_PER_BATCH);
      if (!rows.length) break;
      if (!configured) {
        await this.repo.markProcessed(
          rows.map((r) => r.id),
          new Date(),
          'No SMTP server is configured (EMAIL_HOST is empty)',
        );
        run.dropped += rows.length;
        continue;
      }
      if (!(await this.sendBatch(rows, now, Date.now() + LEASE_MS - LEASE_MARGIN_MS, run))) break;
    }
    if (run.sent || run.failed || run.given_up || run.dropped) this.logger.log(run, 'email notifications');
    return run;
  }

  /** Sends a claimed batch's mails; false when it ran out of lease (the rest wait for the lease's end). */
  private async sendBatch(
    rows: ClaimedEmailLog[],
    now: Date,
    sendBefore: number,
    run: EmailNotificationRun,
  ): Promise<boolean> {
    const groups = new Map<string, ClaimedEmailLog[]>();
    for (const r of rows) {
      const key = `${r.receiver_id}|${r.entity_identifier}`;
      const list = groups.get(key) ?? [];
      list.push(r);
      groups.set(key, list);
    }
    const contexts = new Map(
      (
        await this.repo.mailContexts(
          [...groups.values()].map((g) => ({ receiverId: g[0].receiver_id, issueId: g[0].entity_identifier })),
        )
      ).map((c) => [`${c.receiver_id}|${c.issue_id}`, c]),
    );
    const userIds = new Set<string>();
    for (const r of rows) {
      userIds.add(r.triggered_by_id);
      const a = r.data.issue_activity;
      if (a?.field === 'comment' || a?.field === 'mention')
        for (const id of mentionedUserIds(typeof a.new_value === 'string' ? a.new_value : null)) userIds.add(id);
    }
    const users = new Map(
      (await this.people.liveUsers([...userIds])).map((u): [string, MailUser] => [
        u.id,
        { id: u.id, first_name: u.firstName, last_name: u.lastName, display_name: u.displayName, avatar: u.avatar },
      ]),
    );

    for (const [key, group] of groups) {
      if (Date.now() > sendBefore) {
        this.logger.warn('email notification batch out of lease time; the rest is sent after the lease');
        return false;
      }
      const ids = group.map((r) => r.id);
      const ctx = contexts.get(key);
      if (!ctx) {
        await this.repo.markProcessed(ids, new Date(), 'The receiver may not be mailed about this work item');
        run.dropped += ids.length;
        continue;
      }
      const changes: MailChange[] = group.map((r) => {
        const a = r.data.issue_activity ?? {};
        const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
        return {
          actorId: r.triggered_by_id,
          field: text(a.field),
          oldValue: text(a.old_value),
          newValue: text(a.new_value),
          at: text(a.activity_time),
        };
      });
      const mail = renderIssueUpdates(this.config.webUrl, ctx, changes, users);
      if (mail.empty) {
        await this.repo.markProcessed(ids, new Date(), 'Nothing to show (deleted comments only)');
        run.dropped += ids.length;
        continue;
      }
      try {
        await this.mail.send({ to: ctx.email, subject: mail.subject, html: mail.html, text: mail.text });
        await this.repo.markSent(ids, new Date());
        run.sent++;
        this.metrics?.emailNotificationsSent.inc({});
      } catch (err) {
        const error = failure(err);
        const attempts = Math.max(...group.map((r) => r.attempts)) + 1;
        run.failed++;
        this.metrics?.emailNotificationFailures.inc({});
        if (attempts >= EMAIL_MAX_ATTEMPTS) {
          await this.repo.markProcessed(ids, new Date(), error, attempts);
          run.given_up++;
          this.metrics?.emailNotificationsGivenUp.inc({});
          this.logger.warn({ attempts, error }, 'email notification given up');
        } else {
          await this.repo.markRetry(ids, attempts, new Date(now.getTime() + emailBackoffMs(attempts)), error);
        }
      }
    }
    return true;
  }
}
