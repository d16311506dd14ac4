import * as net from 'node:net';

export interface ReceivedMail {
  /** the AUTH PLAIN credentials, decoded as `user:password` (null without AUTH) */
  auth: string | null;
  from: string;
  to: string[];
  data: string;
}

/**
 * A minimal SMTP server on a free loopback port, enough for nodemailer without TLS:
 * EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA, QUIT. Collects every message it accepts.
 */
export async function startSmtpStub(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { auth: null, from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 stub ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(current);
            current = { auth: current.auth, from: '', to: [], data: '' };
            reply('250 OK queued');
          } else current.data += `${line}\n`;
          continue;
        }
        const upper = line.toUpperCase();
        if (upper.startsWith('EHLO') || upper.startsWith('HELO')) socket.write('250-stub\r\n250 AUTH PLAIN\r\n');
        else if (upper.startsWith('AUTH PLAIN')) {
          const [, user, pass] = Buffer.from(line.split(' ')[2] ?? '', 'base64')
            .toString('utf8')
            .split('\0');
          current.auth = `${user}:${pass}`;
          reply('235 Authentication successful');
        } else if (upper.startsWith('MAIL FROM')) {
          current.from = line.slice(10).trim();
          reply('250 OK');
        } else if (upper.startsWith('RCPT TO')) {
          current.to.push(line.slice(8).trim());
          reply('250 OK');
        } else if (upper === 'DATA') {
          inData = true;
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (upper === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    mails,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
