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

/**
 * POSTs `body` to `target.url`, connecting to `target.address` (the address the URL guard checked):
 * the socket's DNS lookup is answered with it, so the Host header and the TLS server name stay
 * the URL's host while a second, different DNS answer is never used. Redirects are not followed
 * (a 3xx is just a response). The whole attempt is bounded by `timeoutMs`; `signal` aborts it.
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
        agent: false,
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
