import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  /** the raw message, with quoted-printable soft breaks and escapes decoded */
  text: string;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it receives.
 * Point the app at it with `env` (EMAIL_HOST, EMAIL_PORT, no TLS).
 */
export async function startMailCatcher() {
  const mails: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (raw += chunk));
      stream.on('end', () => {
        const text = raw
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    mails,
    env: { EMAIL_HOST: '127.0.0.1', EMAIL_PORT: String(port), EMAIL_USE_TLS: 'false', EMAIL_USE_SSL: 'false' },
    /** the newest mail to `address`, waiting up to 5 s for it */
    async lastTo(address: string): Promise<CaughtMail> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = mails.filter((m) => m.to.includes(address)).at(-1);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
