import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTarget } from './url-guard';

/** What came back from one attempt: a response, or the error that prevented one. */
export type SendOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string | string[] | undefined>; body: string }
  | { kind: 'error'; error: string };

/** How much of a response body is read and kept in the log. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** An idle kept-alive connection to a receiver is closed after this long. */
const IDLE_MS = 15_000;
/** Idle connections kept per receiver (host and port): as many as may be in flight (`WEBHOOK_CONCURRENCY` at most). */
const MAX_IDLE = 1000;
/** Keep-alive agents per checked address; past this many, the idle ones are dropped. */
const MAX_AGENTS = 256;
const agents = new Map<string, http.Agent>();

/**
 * The keep-alive agent for connections to `address` (one per scheme and checked address: a pooled
 * connection always goes to an address the URL guard allowed; the agent pools per host and port).
 */
function agentFor(protocol: string, address: string, family: number): http.Agent {
  const key = `${protocol}${family}/${address}`;
  let agent = agents.get(key);
  if (!agent) {
    if (agents.size >= MAX_AGENTS) {
      for (const [k, a] of agents) {
        if (Object.keys(a.sockets).length === 0 && Object.keys(a.requests).length === 0) {
          a.destroy();
          agents.delete(k);
        }
      }
    }
    const options: http.AgentOptions = {
      keepAlive: true,
      maxFreeSockets: MAX_IDLE,
      timeout: IDLE_MS,
      scheduling: 'lifo',
    };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * POSTs `body` to `target.url`, connecting to `target.address` (the address the URL guard checked):
 * the socket's DNS lookup is answered with it, so the Host header and the TLS server name stay
 * the URL's host while a second, different DNS answer is never used. Redirects are not followed
 * (a 3xx is just a response). The whole attempt is bounded by `timeoutMs`; `signal` aborts it.
 * Connections are kept alive and reused per checked address (`agentFor`).
 */
export function sendWebhook(
  target: WebhookTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  const { url, address, family } = target;
  const lookup: LookupFunction = (_host, options, callback) => {
    const cb = callback as unknown as (err: Error | null, address: unknown, family?: number) => void;
    if ((options as { all?: boolean }).all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = client.request(
      {
        method: 'POST',
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup,
        agent: agentFor(url.protocol, address, family),
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
        });
        const done = () =>
          finish({
            kind: 'response',
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    req.on('error', (err) => finish({ kind: 'error', error: err.message || String(err) }));
    req.end(body);
  });
}
