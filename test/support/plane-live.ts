import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import * as Y from 'yjs';

/**
 * Plane 0.25.3's own live server (`live/` of Plane's frontend, built by
 * test/plane-web/build-frontend.sh) run unmodified against a Meridian, and Y.js clients that talk to
 * it as Plane's page editor does (`@hocuspocus/provider`, document name = page id, query
 * `documentType=project_page&workspaceSlug=…&projectId=…`, token = the user as JSON).
 *
 * Where: `PLANE_LIVE_DIR` (the directory holding `dist/server.js`), else `live/` of `PLANE_WEB_DIR`
 * (default ~/.cache/meridian/plane-web).
 */
export function planeLiveDir(): string {
  if (process.env.PLANE_LIVE_DIR) return process.env.PLANE_LIVE_DIR;
  const web = process.env.PLANE_WEB_DIR ?? path.join(os.homedir(), '.cache', 'meridian', 'plane-web');
  return path.join(web, 'live');
}

/** The built server's script, or null when it is not built. */
export function planeLiveScript(): string | null {
  const script = path.join(planeLiveDir(), 'dist', 'server.js');
  return fs.existsSync(script) ? script : null;
}

export async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PlaneLive {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `ws://127.0.0.1:<port>/live/collaboration` */
  collaboration: string;
  /** what it printed so far */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `node dist/server.js` with `API_BASE_URL` and `PORT` (a free one unless given), no Redis,
 * `LIVE_BASE_PATH=/live` and `extraEnv` (`REDIS_URL`…), and waits for `GET /live/health`. `stop` sends SIGTERM: Plane's server has
 * no handler for it, so it dies at once, without storing (as a container's stop does).
 */
export async function startPlaneLive(
  script: string,
  apiBaseUrl: string,
  port?: number,
  extraEnv: Record<string, string> = {},
): Promise<PlaneLive> {
  const chosen = port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(chosen),
    API_BASE_URL: apiBaseUrl,
    LIVE_BASE_PATH: '/live',
    NODE_ENV: 'production',
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [script], {
    cwd: path.dirname(path.dirname(script)),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${chosen}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get(`${url}/live/health`, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
    });
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Plane's live server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    collaboration: `ws://127.0.0.1:${chosen}/live/collaboration`,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One call Plane's live server made to the API, as the recording proxy saw it. */
export interface RecordedCall {
  method: string;
  /** path and query */
  url: string;
  headers: http.IncomingHttpHeaders;
  status: number;
  /** the answer's body when it is JSON, else null */
  body: unknown;
}

/**
 * A proxy in front of Meridian that records every call passing through it: what Plane's live server
 * asks the API, with which headers, and what it is answered.
 */
export async function startRecordingProxy(
  target: string,
): Promise<{ url: string; calls: RecordedCall[]; close: () => Promise<void> }> {
  const to = new URL(target);
  const calls: RecordedCall[] = [];
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const raw = Buffer.concat(chunks);
          let body: unknown = null;
          if (String(up.headers['content-type'] ?? '').includes('json')) {
            try {
              body = JSON.parse(raw.toString());
            } catch {
              body = null;
            }
          }
          calls.push({
            method: req.method ?? '',
            url: req.url ?? '',
            headers: req.headers,
            status: up.statusCode ?? 0,
            body,
          });
          res.writeHead(up.statusCode ?? 502, up.headers);
          res.end(raw);
        });
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502).end(err.message);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface LiveClient {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  /** true once the server's document was received */
  synced: () => boolean;
  /** true once the server refused the token */
  refused: () => boolean;
  /** the document's text, paragraphs joined by newlines */
  text: () => string;
  /** appends a paragraph (as the editor's `paragraph` node) */
  type: (text: string) => void;
  close: () => void;
}

export interface LiveClientOptions {
  collaboration: string;
  pageId: string;
  workspaceSlug: string;
  projectId: string;
  user: { id: string; name: string };
  /** the browser's Cookie header (`session-id=…`) */
  cookie: string;
  /**
   * 'header' sends the cookie with the WebSocket upgrade as a browser on the app's origin does;
   * 'token' puts it in the token's `cookie` (Plane's `TUserDetails`), the live server's other way.
   */
  cookieVia: 'header' | 'token';
}

/** A Y.js client of Plane's page editor: a `HocuspocusProvider` with Plane's parameters and token. */
export function openLiveClient(options: LiveClientOptions): LiveClient {
  const doc = new Y.Doc();
  const headers = options.cookieVia === 'header' ? { cookie: options.cookie } : {};
  class CookieWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, { headers });
      // a browser's socket reports a failed connection as an event: closing one still connecting
      // (a client closed while the live server restarts) must not throw in the test process
      this.on('error', () => undefined);
    }
  }
  const socket = new HocuspocusProviderWebsocket({
    url: options.collaboration,
    parameters: { documentType: 'project_page', workspaceSlug: options.workspaceSlug, projectId: options.projectId },
    WebSocketPolyfill: CookieWebSocket,
    // a refused client retries quickly and quietly
    delay: 200,
    minDelay: 200,
    maxDelay: 1000,
  });
  const token = {
    id: options.user.id,
    name: options.user.name,
    color: '#3f76ff',
    ...(options.cookieVia === 'token' ? { cookie: options.cookie } : {}),
  };
  let synced = false;
  let refused = false;
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: options.pageId,
    document: doc,
    token: JSON.stringify(token),
    onSynced: () => (synced = true),
    onAuthenticationFailed: () => (refused = true),
  });
  const fragment = doc.getXmlFragment('default');
  return {
    provider,
    doc,
    synced: () => synced,
    refused: () => refused,
    text: () =>
      fragment
        .toArray()
        .map((node) =>
          node instanceof Y.XmlElement
            ? node
                .toArray()
                .map((t) => t.toString())
                .join('')
            : '',
        )
        .join('\n'),
    type: (text: string) => {
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(text)]);
      fragment.push([paragraph]);
    },
    close: () => {
      provider.destroy();
      socket.destroy();
    },
  };
}

/** The text of a stored Yjs document (as `LiveClient.text`). */
export function textOfBinary(binary: Uint8Array): string {
  const doc = new Y.Doc();
  if (binary.byteLength > 0) Y.applyUpdate(doc, binary);
  return doc
    .getXmlFragment('default')
    .toArray()
    .map((node) =>
      node instanceof Y.XmlElement
        ? node
            .toArray()
            .map((t) => t.toString())
            .join('')
        : '',
    )
    .join('\n');
}

/** Polls `test` every 100 ms until it holds; throws with `what` after `timeoutMs`. */
export async function eventually(
  test: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
