import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { childEnv, listeningUrl, startServer } from '../support/processes';

/**
 * One origin in front of Meridian and Plane's three frontend servers, as Plane's own proxy lays them
 * out: `/api/` and `/auth/` to Meridian, `/god-mode` to the admin app, `/spaces` to the published
 * boards' app, everything else to the web app. The browser only ever sees the proxy's origin, so the
 * session cookie, the CSRF cookie and the app's `withCredentials` calls are all same-origin.
 *
 * `/live/` (HTTP and the editor's WebSocket) goes to the live co-editing server chosen by `live`
 * (default `PLANE_LIVE`, else `plane`): `plane` starts Plane's own live server from the frontend build
 * (`live/dist/server.js`, `API_BASE_URL` = Meridian, no Redis), `meridian` sends `/live/` to Meridian
 * itself, `none` refuses the WebSocket at once (the editor then loads and saves through
 * `description/` from the browser).
 */
export type LiveServer = 'plane' | 'meridian' | 'none';

export interface Stack {
  /** `http://127.0.0.1:<port>`, the origin the browser uses */
  origin: string;
  /** Meridian's own address (for set-up calls a test makes without the browser) */
  meridian: string;
  /** Meridian's log so far (pino lines) */
  meridianLog: () => string;
  /** which server answers `/live/` */
  live: LiveServer;
  stop: () => Promise<void>;
}

export interface StackOptions {
  /** where build-frontend.sh built Plane's frontend */
  frontendDir: string;
  /** Meridian's embedded data directory (a fresh one when omitted) */
  dataDir?: string;
  /** extra environment for Meridian */
  env?: Record<string, string>;
  /** who serves `/live/` (default `PLANE_LIVE`, else 'plane') */
  live?: LiveServer;
}

/** The live server setting: `PLANE_LIVE` when it names one, else 'plane'. */
export function liveServerFromEnv(): LiveServer {
  const value = process.env.PLANE_LIVE ?? 'plane';
  if (value !== 'plane' && value !== 'meridian' && value !== 'none')
    throw new Error(`PLANE_LIVE=${value}: plane, meridian or none`);
  return value;
}

type Target = { host: string; port: number };

function proxyTo(target: Target, req: http.IncomingMessage, res: http.ServerResponse): void {
  const upstream = http.request(
    {
      host: target.host,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: {
        ...req.headers,
        'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1',
        'x-forwarded-proto': 'http',
        'x-forwarded-host': req.headers.host ?? '',
      },
    },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`proxy: ${err.message}`);
  });
  req.pipe(upstream);
}

/** Forwards a WebSocket upgrade to `target` and splices the two sockets once it answers. */
function upgradeTo(target: Target, req: http.IncomingMessage, socket: Socket, head: Buffer): void {
  const upstream = http.request({
    host: target.host,
    port: target.port,
    method: req.method,
    path: req.url,
    headers: {
      ...req.headers,
      'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1',
      'x-forwarded-proto': 'http',
    },
  });
  upstream.on('upgrade', (res, upSocket, upHead) => {
    const lines = [`HTTP/1.1 ${res.statusCode} ${res.statusMessage}`];
    for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
    socket.write(lines.join('\r\n') + '\r\n\r\n');
    if (upHead.length) socket.write(upHead);
    if (head.length) upSocket.write(head);
    upSocket.pipe(socket).pipe(upSocket);
    upSocket.on('error', () => socket.destroy());
    socket.on('error', () => upSocket.destroy());
  });
  upstream.on('response', (res) => {
    // refused (no upgrade): pass the answer on and close
    socket.end(`HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\nConnection: close\r\n\r\n`);
    res.resume();
  });
  upstream.on('error', () => socket.destroy());
  upstream.end();
}

/** Starts Plane's own live server (`live/dist/server.js` of the frontend build) against Meridian. */
async function startPlaneLive(
  frontendDir: string,
  meridian: string,
  log: fs.WriteStream,
): Promise<{ child: ChildProcess; port: number }> {
  const script = path.join(frontendDir, 'live', 'dist', 'server.js');
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run test/plane-web/build-frontend.sh first`);
  const port = await freePort();
  const child = spawn(process.execPath, [script], {
    cwd: path.dirname(path.dirname(script)),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      API_BASE_URL: meridian,
      LIVE_BASE_PATH: '/live',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  await waitForPort(port, 60_000);
  return { child, port };
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const req = http.get({ host: '127.0.0.1', port, path: '/', timeout: 2000 }, (res) => {
        res.resume();
        resolve();
      });
      req.on('error', () => {
        if (Date.now() > deadline) reject(new Error(`nothing answers on port ${port}`));
        else setTimeout(attempt, 300);
      });
    };
    attempt();
  });
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts one of Plane's Next.js standalone servers (`web`, `admin` or `space`). */
async function startNext(
  frontendDir: string,
  app: string,
  log: fs.WriteStream,
): Promise<{ child: ChildProcess; port: number }> {
  const script = path.join(frontendDir, app, '.next', 'standalone', app, 'server.js');
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run test/plane-web/build-frontend.sh first`);
  const port = await freePort();
  const child = spawn(process.execPath, [script], {
    cwd: path.dirname(script),
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: '127.0.0.1',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  await waitForPort(port, 60_000);
  return { child, port };
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const targets: Record<string, Target> = {};
  const proxy = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const target =
      url.startsWith('/api/') || url.startsWith('/auth/')
        ? targets.meridian
        : url.startsWith('/live/') && targets.live
          ? targets.live
          : url === '/god-mode' || url.startsWith('/god-mode/')
            ? targets.admin
            : url === '/spaces' || url.startsWith('/spaces/')
              ? targets.space
              : targets.web;
    if (!target) {
      res.writeHead(503).end('starting');
      return;
    }
    proxyTo(target, req, res);
  });
  // `/live/` upgrades go to the live server; with none (`live: 'none'`) they are refused at once, as a
  // proxy with nothing behind `/live/` does, so the page editor falls back to `description/`.
  proxy.on('upgrade', (req, socket: Socket, head: Buffer) => {
    if (targets.live && (req.url ?? '').startsWith('/live/')) upgradeTo(targets.live, req, socket, head);
    else socket.destroy();
  });
  const live = options.live ?? liveServerFromEnv();
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-plane-web-'));
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      WEB_URL: origin,
      // the proxy's origin serves /api/ and /auth/ too: Meridian's links (signed upload URLs) go there
      API_BASE_URL: origin,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      ...(options.env ?? {}),
    },
    120_000,
  );
  const meridian = listeningUrl(server.output());
  const meridianUrl = new URL(meridian);
  targets.meridian = { host: '127.0.0.1', port: Number(meridianUrl.port) };
  let liveChild: ChildProcess | undefined;
  if (live === 'meridian') targets.live = targets.meridian;
  if (live === 'plane') {
    const started = await startPlaneLive(
      options.frontendDir,
      meridian,
      fs.createWriteStream(path.join(dataDir, 'live.log')),
    );
    liveChild = started.child;
    targets.live = { host: '127.0.0.1', port: started.port };
  }

  const nextLog = fs.createWriteStream(path.join(dataDir, 'next.log'));
  const apps = await Promise.all(['web', 'admin', 'space'].map((app) => startNext(options.frontendDir, app, nextLog)));
  targets.web = { host: '127.0.0.1', port: apps[0].port };
  targets.admin = { host: '127.0.0.1', port: apps[1].port };
  targets.space = { host: '127.0.0.1', port: apps[2].port };

  return {
    origin,
    meridian,
    meridianLog: server.output,
    live,
    stop: async () => {
      for (const { child } of apps) child.kill('SIGTERM');
      liveChild?.kill('SIGTERM');
      server.child.kill('SIGTERM');
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      proxy.closeAllConnections();
      nextLog.end();
    },
  };
}

export { childEnv };
