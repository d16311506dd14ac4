import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { EMAIL_MAX_ATTEMPTS, EmailNotificationService, JobRunner } from '#domain';
import {
  addMember,
  addProjectMember,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = 'metrics-token-for-the-tests-0123456789';
const WEB_URL = 'http://plane.example.test';

/** A mail as the SMTP server received it, its MIME parts decoded. */
interface Mail {
  to: string[];
  subject: string;
  html: string;
  text: string;
}

function decodePart(headers: string, body: string): string {
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  if (/content-transfer-encoding:\s*base64/i.test(headers))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The text/plain and text/html parts of a (multipart/alternative) message. */
function parse(raw: string): { subject: string; html: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
  const parts = { html: '', text: '' };
  const sections = boundary
    ? body.split(`--${boundary}`).slice(1, -1)
    : [
        `${/^Content-Type:.*$/im.exec(head)?.[0]}\r\n${/^Content-Transfer-Encoding:.*$/im.exec(head)?.[0]}\r\n\r\n${body}`,
      ];
  for (const section of sections) {
    const s = section.replace(/^\r\n/, '');
    const at = s.indexOf('\r\n\r\n');
    const h = s.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
    const content = decodePart(h, s.slice(at + 4).replace(/\r\n$/, '')).replace(/\r\n/g, '\n');
    if (/content-type:\s*text\/html/i.test(h)) parts.html = content;
    else if (/content-type:\s*text\/plain/i.test(h)) parts.text = content;
  }
  return { subject, ...parts };
}

/** A real SMTP server on loopback that keeps every message, and refuses recipients while `refuse` is set. */
async function startSmtp() {
  const mails: Mail[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.refuse) return callback();
      const err = new Error('Mailbox temporarily unavailable') as Error & { responseCode: number };
      err.responseCode = 451;
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ...parse(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mails,
    state,
    env: { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(port), EMAIL_USE_TLS: 'false', EMAIL_USE_SSL: 'false' },
    to: (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const mention = (userId: string) =>
  `<p>see <mention-component entity_name="user_mention" entity_identifier="${userId}"></mention-component> here</p>`;

/**
 * Work item email notifications (Plane's `EmailNotificationLog` rows and `stack_email_notification`):
 * rows written with the change, stacked into one mail per receiver and work item by
 * `EmailNotificationService.sendPending`, sent to a real SMTP server in this process.
 */
describe('email notifications', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sender: EmailNotificationService;
  let ada: SignedUp; // Admin: makes the changes
  let bob: SignedUp; // Member: assignee
  let cyd: SignedUp; // project Guest
  let dan: SignedUp; // Member: mentioned
  let ws: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let adaKey: string;
  let states: Record<string, string>;
  const v1 = (path: string) => `/api/v1/workspaces/${ws.slug}/projects/${project.id}/${path}`;

  const createItem = async (body: Record<string, unknown>) => {
    const res = await t.api.post(v1('issues/')).set('X-API-Key', adaKey).send(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number };
  };
  const patchItem = async (id: string, body: Record<string, unknown>) => {
    const res = await t.api
      .patch(v1(`issues/${id}/`))
      .set('X-API-Key', adaKey)
      .send(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const comment = async (id: string, html: string) => {
    const res = await t.api
      .post(v1(`issues/${id}/comments/`))
      .set('X-API-Key', adaKey)
      .send({ comment_html: html });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  };
  const prefs = async (u: SignedUp, body: Record<string, boolean>) => {
    const res = await t.api
      .patch('/api/users/me/notification-preferences/')
      .auth(u.token, { type: 'bearer' })
      .send(body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const allOn = { property_change: true, state_change: true, comment: true, mention: true, issue_completed: true };
  const scrape = async () => {
    const res = await t.api.get('/metrics').auth(TOKEN, { type: 'bearer' });
    assert.equal(res.status, 200, res.text);
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(res.text)?.[1] ?? NaN);
    return {
      sent: value('meridian_email_notifications_sent_total'),
      failures: value('meridian_email_notification_failures_total'),
      givenUp: value('meridian_email_notifications_given_up_total'),
    };
  };
  /** An item assigned to bob whose assignment mail was already sent (bob follows it). */
  const bobsItem = async (name = 'Assigned to Bob') => {
    const item = await createItem({ name, assignees: [bob.userId] });
    await sender.sendPending();
    smtp.mails.length = 0;
    return item;
  };

  before(async () => {
    smtp = await startSmtp();
    t = await startTestApp({
      ...smtp.env,
      WEB_URL,
      API_KEY_RATE_LIMIT: '100000',
      METRICS_ENABLED: 'true',
      METRICS_TOKEN: TOKEN,
      // no loop: the scheduled send must not take the rows a test sends by hand
      JOBS_RUNNER: 'false',
    });
    sender = t.app.get(EmailNotificationService);
    [ada, bob, cyd, dan] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    await t.sql(`UPDATE users SET first_name = 'Ada', last_name = 'Lovelace' WHERE id = $1`, [ada.userId]);
    await t.sql(`UPDATE users SET display_name = 'dan_the_man' WHERE id = $1`, [dan.userId]);
    ws = await createWorkspace(t, ada.token);
    adaKey = await createApiKey(t, ada.token, ws.slug);
    await addMember(t, ws.id, bob.userId, 15);
    await addMember(t, ws.id, cyd.userId, 5);
    await addMember(t, ws.id, dan.userId, 15);
    project = await createAppProject(t, ada.token, ws.slug, { identifier: 'MAIL', name: 'Mail Room' });
    await addProjectMember(t, ws.id, project.id, bob.userId, 15);
    await addProjectMember(t, ws.id, project.id, cyd.userId, 5);
    await addProjectMember(t, ws.id, project.id, dan.userId, 15);
    const rows = await t.sql<{ id: string; name: string }>('SELECT id, name FROM states WHERE project_id = $1', [
      project.id,
    ]);
    states = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    smtp.state.refuse = false;
    for (const u of [bob, cyd, dan]) await prefs(u, allOn);
    await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [project.id]);
    await sender.sendPending();
    smtp.mails.length = 0;
  });

  it("stacks a work item's changes into one mail with Plane's subject, HTML and text parts and the link; never the actor", async () => {
    const item = await createItem({ name: 'Fix the login page!', assignees: [bob.userId] });
    await patchItem(item.id, { priority: 'high' });
    await patchItem(item.id, { state: states['In Progress'] });
    await comment(item.id, '<p>Looks <strong>good</strong> to me</p>');
    assert.equal(smtp.mails.length, 0, 'nothing is sent by the requests themselves');

    // the job the runner starts every 5 minutes (`send-email-notifications`, email-notification.jobs.ts)
    const run = await t.app.get(JobRunner, { strict: false }).runNow('send-email-notifications');
    assert.equal(run.outcome, 'success', run.error ?? '');
    assert.deepEqual(run.result, { sent: 1, failed: 0, given_up: 0, dropped: 0 });
    assert.equal(smtp.to(ada.email).length, 0, 'the actor is not mailed');
    const mails = smtp.to(bob.email);
    assert.equal(mails.length, 1, 'one mail per receiver and work item');
    const [mail] = mails;
    assert.equal(mail.subject, `MAIL-${item.sequence_id} Fix the login page`);
    const url = `${WEB_URL}/${ws.slug}/projects/${project.id}/issues/${item.id}`;
    assert.ok(mail.html.includes(`href="${url}"`), mail.html);
    assert.match(mail.html, /View issue/);
    assert.ok(mail.html.includes(`MAIL-${item.sequence_id} updates`));
    assert.ok(mail.html.includes('<strong>good</strong>'), 'the comment HTML');
    assert.ok(mail.html.includes(`href="${WEB_URL}/profile/notifications"`));
    assert.ok(mail.text.includes(`View issue: ${url}`), mail.text);
    assert.ok(mail.text.includes(`${ws.slug}/Mail Room/MAIL-${item.sequence_id}: Fix the login page!`), mail.text);
    assert.ok(mail.text.includes('Updates were made to the issue by Ada Lovelace.'), mail.text);
    assert.match(mail.text, /^Priority: none → high$/m);
    assert.match(mail.text, /^State: Backlog → In Progress$/m);
    assert.match(mail.text, /^Assignee: /m);
    assert.match(mail.text, /^Looks good to me$/m);
    assert.ok(mail.text.includes(`This email was sent to ${bob.email}.`));

    const logged = await t.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM email_notification_logs WHERE entity_identifier = $1 AND sent_at IS NOT NULL',
      [item.id],
    );
    assert.ok(logged[0].n >= 4, 'every stacked row is marked sent');
    assert.deepEqual(await sender.sendPending(), { sent: 0, failed: 0, given_up: 0, dropped: 0 }, 'sent once');
  });

  it('property_change gates field changes', async () => {
    const item = await bobsItem();
    await prefs(bob, { property_change: false });
    await patchItem(item.id, { priority: 'low' });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 0);
    await prefs(bob, { property_change: true });
    await patchItem(item.id, { priority: 'medium' });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 1);
    assert.match(smtp.to(bob.email)[0].text, /^Priority: low → medium$/m);

    // adding the work item to a cycle is not mailed (Plane's notifications skip cycle activities)
    const cycle = await t.api.post(v1('cycles/')).set('X-API-Key', adaKey).send({ name: 'Sprint' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const added = await t.api
      .post(v1(`cycles/${cycle.body.id}/cycle-issues/`))
      .set('X-API-Key', adaKey)
      .send({ issues: [item.id] });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const history = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM issue_activities WHERE issue_id = $1 AND field = 'cycles'`,
      [item.id],
    );
    assert.equal(history[0].n, 1, 'the cycle change is in the history');
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 1, 'but not mailed');
  });

  it('state_change gates state changes; issue_completed lets a completed state through', async () => {
    const item = await bobsItem();
    await prefs(bob, { state_change: false, issue_completed: false });
    await patchItem(item.id, { state: states['Todo'] });
    await patchItem(item.id, { state: states['Done'] });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 0, 'both off: no state mail, even to a completed state');

    await prefs(bob, { issue_completed: true });
    await patchItem(item.id, { state: states['In Progress'] });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 0, 'issue_completed alone: not for a started state');
    await patchItem(item.id, { state: states['Done'] });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 1, 'issue_completed: a completed state');
    assert.match(smtp.to(bob.email)[0].text, /^State: In Progress → Done$/m);

    await prefs(bob, { state_change: true, issue_completed: false });
    await patchItem(item.id, { state: states['Todo'] });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 2, 'state_change: any state');
  });

  it('comment gates comments', async () => {
    const item = await bobsItem();
    await prefs(bob, { comment: false });
    await comment(item.id, '<p>first</p>');
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 0);
    await prefs(bob, { comment: true });
    await comment(item.id, '<p>second</p>');
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 1);
    assert.match(smtp.to(bob.email)[0].text, /^second$/m);
  });

  it('mention gates mentions; the mention shows as @name', async () => {
    const item = await bobsItem();
    await prefs(dan, { mention: false });
    await comment(item.id, mention(dan.userId));
    await sender.sendPending();
    assert.equal(smtp.to(dan.email).length, 0);
    await prefs(dan, { mention: true });
    const other = await createItem({ name: 'Another one' });
    await comment(other.id, mention(dan.userId));
    await sender.sendPending();
    const mails = smtp.to(dan.email);
    assert.equal(mails.length, 1);
    assert.equal(mails[0].subject, `MAIL-${other.sequence_id} Another one`);
    assert.ok(mails[0].html.includes('@dan_the_man'), mails[0].html);
    assert.ok(!mails[0].html.includes('mention-component'));
  });

  it('mails a project Guest only about work items they may see (theirs, or all with guest_view_all_features)', async () => {
    // Ada's work item, followed by the Guest and mentioning them: not theirs to see
    const item = await createItem({ name: 'Not for guests' });
    await t.sql(
      'INSERT INTO issue_subscribers (workspace_id, project_id, issue_id, subscriber_id) VALUES ($1, $2, $3, $4)',
      [ws.id, project.id, item.id, cyd.userId],
    );
    await comment(item.id, mention(cyd.userId));
    await patchItem(item.id, { priority: 'urgent' });
    // a work item the Guest created and follows
    const own = await createItem({ name: 'Guest made this' });
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [own.id, cyd.userId]);
    await t.sql(
      'INSERT INTO issue_subscribers (workspace_id, project_id, issue_id, subscriber_id) VALUES ($1, $2, $3, $4)',
      [ws.id, project.id, own.id, cyd.userId],
    );
    await patchItem(own.id, { priority: 'high' });
    await sender.sendPending();
    assert.deepEqual(
      smtp.to(cyd.email).map((m) => m.subject),
      [`MAIL-${own.sequence_id} Guest made this`],
    );

    smtp.mails.length = 0;
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [project.id]);
    await patchItem(item.id, { priority: 'low' });
    await sender.sendPending();
    assert.deepEqual(
      smtp.to(cyd.email).map((m) => m.subject),
      [`MAIL-${item.sequence_id} Not for guests`],
    );

    // written while the Guest could see it, dropped when they no longer can by the time it is sent
    smtp.mails.length = 0;
    await patchItem(item.id, { priority: 'medium' });
    await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [project.id]);
    const run = await sender.sendPending();
    assert.equal(smtp.to(cyd.email).length, 0);
    assert.ok(run.dropped >= 1);
  });

  it('retries a refused mail with backoff, then sends it; gives up after the cap; counted in /metrics', async () => {
    const before = await scrape();
    const item = await bobsItem('Flaky mail server');
    const start = await scrape();
    assert.equal(start.sent, before.sent + 1);

    smtp.state.refuse = true;
    await comment(item.id, '<p>are you there?</p>');
    const now = new Date(Date.now() + 1000);
    assert.deepEqual(await sender.sendPending(now), { sent: 0, failed: 1, given_up: 0, dropped: 0 });
    const [row] = await t.sql<{ attempts: number; next_attempt_at: Date; last_error: string }>(
      `SELECT attempts, next_attempt_at, last_error FROM email_notification_logs
        WHERE entity_identifier = $1 AND receiver_id = $2 AND processed_at IS NULL`,
      [item.id, bob.userId],
    );
    assert.equal(row.attempts, 1);
    assert.ok(new Date(row.next_attempt_at).getTime() > now.getTime(), 'the next attempt waits');
    assert.match(row.last_error, /451/);
    smtp.state.refuse = false;
    assert.deepEqual(await sender.sendPending(now), { sent: 0, failed: 0, given_up: 0, dropped: 0 }, 'not due yet');
    assert.deepEqual(await sender.sendPending(new Date(now.getTime() + 5 * 60_000)), {
      sent: 1,
      failed: 0,
      given_up: 0,
      dropped: 0,
    });
    assert.equal(smtp.to(bob.email).length, 1);
    assert.match(smtp.to(bob.email)[0].text, /^are you there\?$/m);

    smtp.state.refuse = true;
    await comment(item.id, '<p>hello?</p>');
    let at = Date.now() + 1000;
    let last = { sent: 0, failed: 0, given_up: 0, dropped: 0 };
    for (let i = 0; i < EMAIL_MAX_ATTEMPTS; i++) {
      last = await sender.sendPending(new Date(at));
      assert.equal(last.failed, 1, `attempt ${i + 1}`);
      at += 2 * 3600_000;
    }
    assert.equal(last.given_up, 1);
    assert.deepEqual(await sender.sendPending(new Date(at)), { sent: 0, failed: 0, given_up: 0, dropped: 0 });
    const end = await scrape();
    assert.equal(end.sent, start.sent + 1);
    assert.equal(end.failures, start.failures + 1 + EMAIL_MAX_ATTEMPTS);
    assert.equal(end.givenUp, start.givenUp + 1);
  });

  it('two senders at once send each mail once', async () => {
    const items = [];
    for (let i = 0; i < 6; i++)
      items.push(await createItem({ name: `Parallel ${i}`, assignees: [bob.userId, dan.userId] }));
    const runs = await Promise.all([sender.sendPending(), sender.sendPending(), sender.sendPending()]);
    const seen = smtp.mails.map((m) => `${m.to.join(',')}: ${m.subject}`);
    assert.equal(
      runs.reduce((n, r) => n + r.sent, 0),
      12,
      `runs ${JSON.stringify(runs)}; mails ${seen.join(' | ')}`,
    );
    for (const u of [bob, dan]) {
      const subjects = smtp
        .to(u.email)
        .map((m) => m.subject)
        .sort();
      assert.deepEqual(subjects, items.map((it, i) => `MAIL-${it.sequence_id} Parallel ${i}`).sort());
    }
  });

  it('a failure to write the mail rows never fails the change; SMTP is not involved in the request', async () => {
    const item = await bobsItem('Unwritable log');
    smtp.state.refuse = true;
    await t.sql(
      `ALTER TABLE email_notification_logs ADD CONSTRAINT email_logs_refuse_all CHECK (attempts < 0) NOT VALID`,
    );
    try {
      await patchItem(item.id, { priority: 'urgent' });
      await comment(item.id, '<p>still saved</p>');
    } finally {
      await t.sql('ALTER TABLE email_notification_logs DROP CONSTRAINT email_logs_refuse_all');
    }
    const [saved] = await t.sql<{ priority: string }>('SELECT priority FROM issues WHERE id = $1', [item.id]);
    assert.equal(saved.priority, 'urgent');
    const rows = await t.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM issue_comments WHERE issue_id = $1 AND deleted_at IS NULL',
      [item.id],
    );
    assert.equal(rows[0].n, 1);
    const pending = await t.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM email_notification_logs WHERE entity_identifier = $1 AND processed_at IS NULL',
      [item.id],
    );
    assert.equal(pending[0].n, 0, 'the rows of those changes were not written');
    smtp.state.refuse = false;
    await patchItem(item.id, { priority: 'low' });
    await sender.sendPending();
    assert.equal(smtp.to(bob.email).length, 1, 'later changes are mailed again');
  });
});

describe('email notifications without an SMTP server', () => {
  let t: TestApp;
  after(() => t?.close());

  it('drops due rows unsent (nothing piles up), and prunes rows finished more than 30 days ago', async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    const [ada, bob] = [await signUp(t), await signUp(t)];
    const ws = await createWorkspace(t, ada.token);
    const key = await createApiKey(t, ada.token, ws.slug);
    await addMember(t, ws.id, bob.userId, 15);
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'NOSMTP' });
    await addProjectMember(t, ws.id, project.id, bob.userId, 15);
    const res = await t.api
      .post(`/api/v1/workspaces/${ws.slug}/projects/${project.id}/issues/`)
      .set('X-API-Key', key)
      .send({ name: 'No mail server', assignees: [bob.userId] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const old = { workspace_id: ws.id, project_id: project.id, receiver_id: bob.userId, issue: res.body.id };
    for (const days of [31, 29])
      await t.sql(
        `INSERT INTO email_notification_logs
           (workspace_id, project_id, receiver_id, triggered_by_id, entity_identifier, data, processed_at, sent_at)
         VALUES ($1, $2, $3, $3, $4, '{}', now() - make_interval(days => $5), now() - make_interval(days => $5))`,
        [old.workspace_id, old.project_id, old.receiver_id, old.issue, days],
      );

    const run = await t.app.get(EmailNotificationService).sendPending();
    assert.deepEqual(run, { sent: 0, failed: 0, given_up: 0, dropped: 1 });
    const rows = await t.sql<{ sent: boolean; error: string | null }>(
      `SELECT sent_at IS NOT NULL AS sent, last_error AS error FROM email_notification_logs
        WHERE entity_identifier = $1 ORDER BY sent_at NULLS FIRST`,
      [res.body.id],
    );
    assert.equal(rows.length, 2, 'the row finished 31 days ago is gone, the one of 29 days kept');
    assert.equal(rows[0].sent, false, 'the new row: dropped, not sent');
    assert.match(String(rows[0].error), /No SMTP server/);
    assert.equal(rows[1].sent, true);
  });
});
