import { createProxyServer } from 'http-proxy-3';
import * as http from 'node:http';
import type * as net from 'node:net';
import { Readable } from 'node:stream';

/** One upstream server and whether its last health check passed. */
interface Backend {
  url: string;
  healthy: boolean;
  /** health checks in a row that got no answer */
  failures: number;
}

/** Health checks without an answer that take a backend out of rotation. */
const FALL = 3;

/**
 * A load balancer for the replicas test, as nginx or HAProxy would be set up in front of Meridian:
 * http-proxy-3 does the proxying over a keep-alive agent (connections to the replicas are reused,
 * which is what a stopping replica must cope with); this class adds what a load balancer adds:
 *
 * - an active health check: `GET /health` on every backend every `checkEveryMs`; only backends whose
 *   last answer was 200 get requests (a draining replica's 503 takes it out of rotation at once;
 *   checks that get no answer take it out after three in a row);
 * - round robin over the healthy backends;
 * - a retry on another backend when the connection to one is refused (nginx's `proxy_next_upstream
 *   error`): the request never reached a server, so retrying is safe for any method. A connection
 *   reset after the request was sent is not retried: it is a failed request, as a client would see it.
 */
export class ReplicaProxy {
  private readonly backends: Backend[] = [];
  private next = 0;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly proxy = createProxyServer({ agent: this.agent, xfwd: true, proxyTimeout: 30_000 });
  private readonly server: http.Server;
  private readonly checker: NodeJS.Timeout;
  /** requests answered 502 by the proxy itself (no backend, or an upstream error) */
  proxyErrors = 0;

  constructor(private readonly checkEveryMs = 100) {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.checker = setInterval(() => void this.checkAll(), checkEveryMs);
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Adds a backend; it gets traffic once a health check passes. */
  add(url: string): void {
    this.backends.push({ url, healthy: false, failures: 0 });
  }

  remove(url: string): void {
    const i = this.backends.findIndex((b) => b.url === url);
    if (i >= 0) this.backends.splice(i, 1);
  }

  /** Resolves once `url` passed a health check (it is in rotation). */
  async waitHealthy(url: string, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.backends.find((b) => b.url === url)?.healthy) {
      if (Date.now() > end) throw new Error(`${url} never became healthy`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.checker);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.agent.destroy();
  }

  private checking = false;

  private async checkAll(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    await Promise.all(
      this.backends.map(async (b) => {
        try {
          const res = await fetch(`${b.url}/health`, { signal: AbortSignal.timeout(1000) });
          await res.arrayBuffer();
          // an answer counts at once: 200 puts it in rotation, a 503 (draining) takes it out
          b.healthy = res.status === 200;
          b.failures = 0;
        } catch {
          // no answer (refused, timed out: a busy machine): out after FALL in a row, as HAProxy's `fall 3`
          if (++b.failures >= FALL) b.healthy = false;
        }
      }),
    );
    this.checking = false;
  }

  private pick(exclude: Set<string>): Backend | undefined {
    const healthy = this.backends.filter((b) => b.healthy && !exclude.has(b.url));
    if (!healthy.length) return undefined;
    return healthy[this.next++ % healthy.length];
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    // the body is read once, so a refused connection can be retried elsewhere with the same body
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const tried = new Set<string>();
    const attempt = () => {
      const backend = this.pick(tried);
      if (!backend) {
        this.proxyErrors++;
        res.writeHead(502, { 'content-type': 'text/plain' }).end('no healthy backend');
        return;
      }
      tried.add(backend.url);
      this.proxy.web(req, res, { target: backend.url, buffer: Readable.from([body]) }, (err) => {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ECONNREFUSED' && !res.headersSent) {
          backend.healthy = false;
          attempt();
          return;
        }
        this.proxyErrors++;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`upstream error: ${code ?? (err as Error).message}`);
      });
    };
    attempt();
  }
}
