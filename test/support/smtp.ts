import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** the decoded text part (quoted-printable soft breaks joined) */
  text: string;
  raw: string;
}

export interface SmtpCapture {
  /** EMAIL_HOST / EMAIL_PORT / EMAIL_USE_TLS settings that point the server at this capture */
  env: Record<string, string>;
  mails: CapturedMail[];
  /** mails sent to `address` (lower-cased), oldest first */
  to(address: string): CapturedMail[];
  /** the last mail sent to `address`; fails when there is none */
  last(address: string): CapturedMail;
  close(): Promise<void>;
}

function decode(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  let body = raw.slice(split + 4);
  const subject = /^Subject: (.*)$/im.exec(head)?.[1] ?? '';
  if (/^Content-Transfer-Encoding: quoted-printable/im.test(head)) {
    body = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  } else if (/^Content-Transfer-Encoding: base64/im.test(head)) {
    body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { subject, text: body.replace(/\r\n/g, '\n') };
}

/**
 * A real SMTP server (the `smtp-server` package) on a free loopback port that keeps every message.
 * nodemailer waits for the server's 250 before `sendMail` resolves, so a mail is captured by the
 * time the HTTP response that sent it arrives.
 */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { subject, text } = decode(raw);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject,
          text,
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  const to = (address: string) => mails.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    env: { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(port), EMAIL_USE_TLS: 'false', EMAIL_USE_SSL: 'false' },
    mails,
    to,
    last(address) {
      const list = to(address);
      if (list.length === 0) throw new Error(`no mail to ${address}`);
      return list[list.length - 1];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
