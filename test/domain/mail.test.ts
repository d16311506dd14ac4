import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { InstanceSettings, MailService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith } from '../support/domain-fixtures';
import { SmtpCapture, startSmtpCapture } from '../support/smtp';

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('domain: mail (MailService): the instance’s SMTP settings read per message, the log fallback, the credentials check', () => {
  let d: DomainContext;
  let mail: MailService;
  let settings: InstanceSettings;
  let smtp: SmtpCapture;
  domainSuite({ projects: 0 }, async (s) => {
    d = s.d;
    mail = d.get(MailService);
    settings = d.get(InstanceSettings);
    smtp = await startSmtpCapture();
  });
  after(() => smtp?.close());

  const useCapture = () =>
    settings.update(
      { EMAIL_HOST: smtp.env.EMAIL_HOST, EMAIL_PORT: smtp.env.EMAIL_PORT, EMAIL_USE_TLS: '0', EMAIL_USE_SSL: '0' },
      null,
    );

  it('without an SMTP server (not production): the message goes to the log, and the check refuses', async () => {
    assert.equal(await mail.isConfigured(), false);
    assert.equal(await mail.canDeliver(), true);
    assert.equal(await mail.send({ to: 'a@example.com', subject: 'Hi', text: 'code 123' }), 'logged');
    assert.equal(smtp.mails.length, 0);
    await rejectsWith(mail.sendTest('a@example.com'), 'SMTP_CHECK_FAILED');
  });

  it('with one: sent through it, from EMAIL_FROM; a settings change applies to the next message without a restart', async () => {
    await useCapture();
    assert.equal(
      await mail.send({
        to: 'b@example.com',
        subject: 'Report',
        text: 'attached',
        attachments: [{ filename: 'r.csv', content: '"a","b"\r\n', contentType: 'text/csv' }],
      }),
      'sent',
    );
    const first = smtp.last('b@example.com');
    assert.equal(first.subject, 'Report');
    assert.equal(first.from, 'no-reply@localhost');
    assert.match(first.raw, /filename="?r\.csv"?/);
    await settings.update({ EMAIL_FROM: 'Team <team@example.com>' }, null);
    await mail.send({ to: 'b@example.com', subject: 'Again', text: 'x' });
    assert.equal(smtp.last('b@example.com').from, 'team@example.com');
  });

  it('the credentials check sends Plane’s sample message, and names the cause of a failure without the password', async () => {
    await useCapture();
    assert.deepEqual(await mail.sendTest('check@example.com'), { message: 'Email successfully sent.' });
    assert.equal(smtp.last('check@example.com').subject, 'Email Notification from Plane');
    await settings.update(
      {
        EMAIL_PORT: String(await closedPort()),
        EMAIL_HOST_USER: 'mailer',
        EMAIL_HOST_PASSWORD: 'smtp-password-secret',
      },
      null,
    );
    const failed = await rejectsWith(mail.sendTest('check@example.com'), 'SMTP_CHECK_FAILED');
    assert.equal(JSON.stringify(failed).includes('smtp-password-secret'), false);
    // an SMTP failure of `send` throws (the callers retry or report it)
    await assert.rejects(mail.send({ to: 'c@example.com', subject: 'Lost', text: 'x' }));
    assert.equal(smtp.to('c@example.com').length, 0);
  });
});
