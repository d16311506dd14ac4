import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  AppProjectService,
  emailBackoffMs,
  EmailNotificationService,
  InstanceSettings,
  IssueCommandService,
} from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, Seeded } from '../support/domain-fixtures';
import { SmtpCapture, startSmtpCapture } from '../support/smtp';

describe('domain: work item email notifications (EmailNotificationService): who is mailed, stacked, once; dropped when they may not be', () => {
  let d: DomainContext;
  let sender: EmailNotificationService;
  let p: Seeded;
  let mate: Awaited<ReturnType<typeof addWorkspaceMember>>;
  let smtp: SmtpCapture;
  /** a time after every row's `next_attempt_at` */
  const later = () => new Date(Date.now() + 60_000);
  // no runner loop: the test runs the sender itself
  domainSuite({ projects: 1, env: { JOBS_RUNNER: 'false' } }, async (s) => {
    ({ d, p } = s);
    sender = d.get(EmailNotificationService);
    mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await d.get(AppProjectService).join(p.workspaceId, { userId: mate.userId, workspaceRole: 15 }, [p.projectId]);
    smtp = await startSmtpCapture();
    // the invitation above went to the log; from here on, mail goes to a real SMTP server on loopback
    await d
      .get(InstanceSettings)
      .update(
        { EMAIL_HOST: smtp.env.EMAIL_HOST, EMAIL_PORT: smtp.env.EMAIL_PORT, EMAIL_USE_TLS: '0', EMAIL_USE_SSL: '0' },
        null,
      );
  });
  after(() => smtp?.close());

  const logsOf = (issueId: string) =>
    d.sql<{ receiver_id: string; sent: boolean; processed: boolean }>(
      `SELECT receiver_id, sent_at IS NOT NULL AS sent, processed_at IS NOT NULL AS processed
         FROM email_notification_logs WHERE entity_identifier = $1 ORDER BY created_at`,
      [issueId],
    );

  it('an assignee is mailed once for every change since the last run; the actor is not; a second run sends nothing', async () => {
    const issue = await d.get(IssueCommandService).create(p.ctx, { name: 'Mail me', assignees: [mate.userId] });
    await d.get(IssueCommandService).update(p.ctx, issue.id as string, { priority: 'high' });
    const rows = await logsOf(issue.id as string);
    assert.ok(rows.length >= 2);
    assert.ok(rows.every((r) => r.receiver_id === mate.userId && !r.processed));
    const run = await sender.sendPending(later());
    assert.equal(run.sent, 1);
    assert.equal(smtp.to(mate.email).length, 1);
    assert.equal(smtp.to(p.email).length, 0);
    assert.match(smtp.last(mate.email).subject, /Mail me/);
    assert.ok((await logsOf(issue.id as string)).every((r) => r.sent && r.processed));
    assert.deepEqual(await sender.sendPending(later()), { sent: 0, failed: 0, given_up: 0, dropped: 0 });
    assert.equal(smtp.to(mate.email).length, 1);
  });

  it("a batch takes whole (receiver, work item) pairs: a pair's rows are never split into two mails", async () => {
    // two pairs: 499 rows for the first work item, then 2 for the second; a batch holds at most 500 rows,
    // so the second pair goes whole into the next batch (cutting it at 500 would mail it twice)
    const big = await d.get(IssueCommandService).create(p.ctx, { name: 'Many changes' });
    const small = await d.get(IssueCommandService).create(p.ctx, { name: 'Two changes' });
    await d.sql('DELETE FROM email_notification_logs WHERE processed_at IS NULL');
    for (const [issueId, rows, offset] of [
      [big.id, 499, 0],
      [small.id, 2, 600],
    ] as const)
      await d.sql(
        `INSERT INTO email_notification_logs
           (workspace_id, project_id, receiver_id, triggered_by_id, entity_identifier, data, created_at)
         SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid,
                jsonb_build_object('issue', jsonb_build_object('id', $5::uuid::text),
                  'issue_activity', jsonb_build_object('field', 'priority', 'verb', 'updated',
                    'old_value', 'none', 'new_value', 'high', 'actor', $4::uuid::text)),
                now() - interval '1 hour' + (n + $7::int) * interval '1 millisecond'
           FROM generate_series(1, $6::int) AS n`,
        [p.workspaceId, p.projectId, mate.userId, p.userId, issueId, rows, offset],
      );
    const before = smtp.to(mate.email).length;
    const run = await sender.sendPending(later());
    assert.equal(run.sent, 2, JSON.stringify(run));
    const subjects = smtp
      .to(mate.email)
      .slice(before)
      .map((m) => m.subject);
    assert.equal(subjects.filter((s) => s.includes('Many changes')).length, 1);
    assert.equal(subjects.filter((s) => s.includes('Two changes')).length, 1);
    assert.deepEqual(
      await d.sql<{ n: number }>('SELECT count(*)::int AS n FROM email_notification_logs WHERE processed_at IS NULL'),
      [{ n: 0 }],
    );
  });

  it('a receiver who left the project, or a work item deleted since, is dropped unsent', async () => {
    const kept = await d.get(IssueCommandService).create(p.ctx, { name: 'Deleted later', assignees: [mate.userId] });
    await d.get(IssueCommandService).remove(p.ctx, kept.id as string);
    const run = await sender.sendPending(later());
    assert.equal(run.sent, 0);
    assert.ok(run.dropped >= 1);
    assert.ok((await logsOf(kept.id as string)).every((r) => r.processed && !r.sent));
    const before = smtp.to(mate.email).length;
    const other = await d.get(IssueCommandService).create(p.ctx, { name: 'After leaving', assignees: [mate.userId] });
    await d.sql('UPDATE project_members SET is_active = false WHERE project_id = $1 AND member_id = $2', [
      p.projectId,
      mate.userId,
    ]);
    const second = await sender.sendPending(later());
    assert.equal(second.sent, 0);
    assert.ok((await logsOf(other.id as string)).every((r) => r.processed && !r.sent));
    assert.equal(smtp.to(mate.email).length, before);
    await d.sql('UPDATE project_members SET is_active = true WHERE project_id = $1 AND member_id = $2', [
      p.projectId,
      mate.userId,
    ]);
  });

  it('without an SMTP server due rows are dropped unsent, never mailed later', async () => {
    await d.get(InstanceSettings).update({ EMAIL_HOST: '' }, null);
    const issue = await d.get(IssueCommandService).create(p.ctx, { name: 'No server', assignees: [mate.userId] });
    const before = smtp.mails.length;
    const run = await sender.sendPending(later());
    assert.equal(run.sent, 0);
    assert.ok(run.dropped >= 1);
    await d.get(InstanceSettings).update({ EMAIL_HOST: smtp.env.EMAIL_HOST }, null);
    await sender.sendPending(later());
    assert.equal(smtp.mails.length, before);
    assert.ok((await logsOf(issue.id as string)).every((r) => r.processed && !r.sent));
  });

  it('a failed send is retried later, about 1, 3, 9 and 27 minutes, at most an hour', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => emailBackoffMs(n, 0.5)),
      [60_000, 180_000, 540_000, 1_620_000],
    );
    assert.equal(emailBackoffMs(9, 0.5), 3_600_000);
    assert.equal(emailBackoffMs(1, 0), 48_000);
    assert.ok(emailBackoffMs(1, 0.999) < 72_000);
  });
});
