import { ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { guestRule } from '../issue';
import { jobTransaction } from '../kernel/job-limits';
import { EmailNotificationLog } from './email-notification-log.entity';

/** A possible receiver of a work item's email notifications, with their email switches. */
export interface EmailCandidate {
  id: string;
  /** the work item's project */
  project_id: string;
  /** follows the work item (`issue_subscribers`) */
  subscribed: boolean;
  property_change: boolean;
  state_change: boolean;
  comment: boolean;
  mention: boolean;
  issue_completed: boolean;
}

/** A row to insert: who, about which work item, caused by whom, and Plane's `data`. */
export interface EmailLogRow {
  workspaceId: string;
  projectId: string;
  receiverId: string;
  triggeredById: string;
  entityIdentifier: string;
  data: Record<string, unknown>;
}

/** A pending row claimed by a sender (`claimDue`). */
export interface ClaimedEmailLog {
  id: string;
  receiver_id: string;
  entity_identifier: string;
  triggered_by_id: string;
  data: { issue_activity?: Record<string, unknown> } & Record<string, unknown>;
  attempts: number;
}

/** What a mail about one work item to one receiver needs, read when it is sent. */
export interface MailContext {
  receiver_id: string;
  issue_id: string;
  email: string;
  issue_name: string;
  sequence_id: number;
  project_id: string;
  project_identifier: string;
  project_name: string;
  workspace_slug: string;
}

/** A user's name as the mails show it. */
export interface MailUser {
  id: string;
  first_name: string;
  last_name: string;
  display_name: string;
  avatar: string | null;
}

/**
 * The advisory lock (transaction-scoped) that makes the senders' claims one at a time across
 * replicas; an arbitrary constant among Meridian's advisory locks (the migrations' is another).
 */
const EMAIL_CLAIM_LOCK = 7_245_019_311;

/** `em.query` of an `UPDATE … RETURNING` answers `[rows, count]` on PostgreSQL, rows on PGlite. */
function returnedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}

/**
 * All SQL of the email notifications: who may be mailed about a work item (in the change's
 * transaction) and what a mail shows of it (read models over the work item, its project's
 * memberships and the Guest rule, one statement each), the log rows, and the sender's claim (`FOR
 * UPDATE SKIP LOCKED` plus a lease) and its bookkeeping. States and people come through their
 * rooms' doors. Methods that take an `EntityManager` run in the caller's transaction.
 */
@Injectable()
export class EmailNotificationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The users other than `actorId` who may be mailed about work item `issueId`: its subscribers and
   * `extraIds`, kept only when they are active users and active members of its project who may read
   * it (Plane's Guest rule, `guestRule`: a project Guest only the work items they created unless the
   * project has `guest_view_all_features`), with their email switches (all on without a row, as
   * Plane makes it at sign-up). One statement.
   */
  async candidates(em: EntityManager, issueId: string, actorId: string, extraIds: string[]): Promise<EmailCandidate[]> {
    const rows: EmailCandidate[] = await em.query(
      `SELECT pm.member_id::text AS id, i.project_id::text AS project_id,
              (s.subscriber_id IS NOT NULL) AS subscribed,
              COALESCE(np.property_change, true) AS property_change,
              COALESCE(np.state_change, true) AS state_change,
              COALESCE(np.comment, true) AS comment,
              COALESCE(np.mention, true) AS mention,
              COALESCE(np.issue_completed, true) AS issue_completed
         FROM issues i
         JOIN projects p ON p.id = i.project_id
         JOIN project_members pm ON pm.project_id = i.project_id AND pm.is_active = true AND pm.deleted_at IS NULL
         JOIN users u ON u.id = pm.member_id AND u.is_active = true AND u.is_bot = false
         LEFT JOIN issue_subscribers s ON s.issue_id = i.id AND s.subscriber_id = pm.member_id
         LEFT JOIN user_notification_preferences np
                ON np.user_id = pm.member_id AND np.workspace_id IS NULL AND np.project_id IS NULL AND np.deleted_at IS NULL
        WHERE i.id = $1 AND pm.member_id <> $2
          AND (s.subscriber_id IS NOT NULL OR pm.member_id = ANY($3::uuid[]))
          AND (pm.role > ${ROLE.GUEST} OR ${guestRule('pm.member_id')}) IS TRUE`,
      [issueId, actorId, [...new Set(extraIds)]],
    );
    return rows.map((r) => ({
      id: r.id,
      project_id: r.project_id,
      subscribed: !!r.subscribed,
      property_change: !!r.property_change,
      state_change: !!r.state_change,
      comment: !!r.comment,
      mention: !!r.mention,
      issue_completed: !!r.issue_completed,
    }));
  }

  /**
   * Runs `fn` (the log rows' reads and insert) so that its failure never fails the change that
   * caused it: inside a savepoint when `em` is in a transaction (rolled back to on error), and
   * returns the error instead of throwing it.
   */
  async guarded(em: EntityManager, fn: () => Promise<void>): Promise<unknown> {
    const inTransaction = !!em.queryRunner?.isTransactionActive;
    if (inTransaction) await em.query('SAVEPOINT email_notification_logs');
    try {
      await fn();
      if (inTransaction) await em.query('RELEASE SAVEPOINT email_notification_logs');
      return null;
    } catch (err) {
      if (inTransaction) await em.query('ROLLBACK TO SAVEPOINT email_notification_logs');
      return err ?? new Error('failed');
    }
  }

  /** Inserts the rows (one statement; none when empty). */
  async insertLogs(em: EntityManager, rows: EmailLogRow[]): Promise<void> {
    if (rows.length) await em.insert(EmailNotificationLog, rows as never);
  }

  /**
   * Claims pending rows due at `now`: all the rows of up to `groups` (receiver, work item) pairs,
   * oldest first, as many whole pairs as fit in `maxRows` (a single pair with more rows is cut at
   * `maxRows`, its rest claimed by the next batch), and leases them by moving `next_attempt_at` to
   * `leaseUntil`. Claims are taken one at a time across replicas (a transaction-scoped advisory
   * lock, `EMAIL_CLAIM_LOCK`), each committed at once: two senders never split one pair's rows
   * between them (which would mail that pair twice), and another replica neither waits for a
   * leased row nor takes it until the lease ends.
   */
  async claimDue(now: Date, leaseUntil: Date, groups: number, maxRows: number): Promise<ClaimedEmailLog[]> {
    const result: unknown = await jobTransaction(this.dataSource, async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [EMAIL_CLAIM_LOCK]);
      return em.query(
        `WITH pairs AS (
                SELECT receiver_id, entity_identifier, min(created_at) AS first_at, count(*) AS n
                  FROM email_notification_logs
                 WHERE processed_at IS NULL AND next_attempt_at <= $1
                 GROUP BY receiver_id, entity_identifier
                 ORDER BY first_at, receiver_id, entity_identifier LIMIT ${groups}),
              fitting AS (
                SELECT receiver_id, entity_identifier FROM (
                  SELECT receiver_id, entity_identifier,
                         sum(n) OVER (ORDER BY first_at, receiver_id, entity_identifier) AS upto,
                         row_number() OVER (ORDER BY first_at, receiver_id, entity_identifier) AS rn
                    FROM pairs) p
                 WHERE upto <= ${maxRows} OR rn = 1),
              picked AS (
                SELECT l.id FROM email_notification_logs l
                 WHERE l.processed_at IS NULL AND l.next_attempt_at <= $1
                   AND (l.receiver_id, l.entity_identifier) IN (SELECT receiver_id, entity_identifier FROM fitting)
                 ORDER BY l.created_at, l.id LIMIT ${maxRows}
                 FOR UPDATE SKIP LOCKED)
         UPDATE email_notification_logs e SET next_attempt_at = $2
           FROM picked WHERE e.id = picked.id
         RETURNING e.id::text AS id, e.receiver_id::text AS receiver_id, e.entity_identifier::text AS entity_identifier,
                   e.triggered_by_id::text AS triggered_by_id, e.data, e.attempts, e.created_at`,
        [now, leaseUntil],
      );
    });
    const rows = returnedRows<ClaimedEmailLog & { created_at: Date }>(result);
    return rows
      .sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime() || (a.id < b.id ? -1 : 1))
      .map(({ created_at: _created, ...row }) => ({ ...row, attempts: Number(row.attempts) }));
  }

  /**
   * For each (receiver, work item) pair, what its mail needs, when the receiver may still be mailed:
   * an active user, an active member of the work item's project who may read it (the Guest rule),
   * the work item and its project not deleted. Pairs left out are dropped by the sender.
   */
  async mailContexts(pairs: Array<{ receiverId: string; issueId: string }>): Promise<MailContext[]> {
    if (!pairs.length) return [];
    const rows: MailContext[] = await this.dataSource.query(
      `SELECT g.receiver_id::text AS receiver_id, g.issue_id::text AS issue_id, u.email, i.name AS issue_name,
              i.sequence_id, p.id::text AS project_id, p.identifier AS project_identifier, p.name AS project_name,
              w.slug AS workspace_slug
         FROM unnest($1::uuid[], $2::uuid[]) AS g(receiver_id, issue_id)
         JOIN users u ON u.id = g.receiver_id AND u.is_active = true
         JOIN issues i ON i.id = g.issue_id AND i.deleted_at IS NULL
         JOIN projects p ON p.id = i.project_id AND p.deleted_at IS NULL
         JOIN workspaces w ON w.id = p.workspace_id AND w.deleted_at IS NULL
         JOIN project_members pm ON pm.project_id = p.id AND pm.member_id = g.receiver_id
                                AND pm.is_active = true AND pm.deleted_at IS NULL
        WHERE (pm.role > ${ROLE.GUEST} OR ${guestRule('pm.member_id')}) IS TRUE`,
      [pairs.map((p) => p.receiverId), pairs.map((p) => p.issueId)],
    );
    return rows.map((r) => ({ ...r, sequence_id: Number(r.sequence_id) }));
  }

  /**
   * Deletes up to `limit` rows processed before `before` (sent, given up or dropped); returns how
   * many. Under the background jobs' limits (`jobTransaction`).
   */
  async pruneProcessed(before: Date, limit: number): Promise<number> {
    return jobTransaction(this.dataSource, async (em) => {
      const result: unknown = await em.query(
        `DELETE FROM email_notification_logs WHERE id IN (
           SELECT id FROM email_notification_logs WHERE processed_at IS NOT NULL AND processed_at < $1 LIMIT ${limit})
         RETURNING id`,
        [before],
      );
      return returnedRows<{ id: string }>(result).length;
    });
  }

  /** The rows were sent at `at`. */
  async markSent(ids: string[], at: Date): Promise<void> {
    if (ids.length)
      await this.dataSource.query(
        `UPDATE email_notification_logs SET sent_at = $2, processed_at = $2 WHERE id = ANY($1::uuid[])`,
        [ids, at],
      );
  }

  /** The rows are finished without a mail (dropped, or given up), with the reason. */
  async markProcessed(ids: string[], at: Date, reason: string, attempts?: number): Promise<void> {
    if (ids.length)
      await this.dataSource.query(
        `UPDATE email_notification_logs SET processed_at = $2, last_error = $3, attempts = COALESCE($4, attempts)
          WHERE id = ANY($1::uuid[])`,
        [ids, at, reason, attempts ?? null],
      );
  }

  /** A failed send: `attempts` made so far, the next one at `nextAt`. */
  async markRetry(ids: string[], attempts: number, nextAt: Date, error: string): Promise<void> {
    if (ids.length)
      await this.dataSource.query(
        `UPDATE email_notification_logs SET attempts = $2, next_attempt_at = $3, last_error = $4 WHERE id = ANY($1::uuid[])`,
        [ids, attempts, nextAt, error],
      );
  }
}
