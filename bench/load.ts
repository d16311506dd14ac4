/**
 * A small closed-loop load generator: `connections` keep-alive connections, each sending its next
 * request when the previous answer is read, for `seconds`. Reports requests per second and
 * latency percentiles. (No dependency: `autocannon` or `wrk` measure the same thing; see
 * bench/README.md.)
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  firstError?: string;
  /** every request's latency (ms), sorted: lets several rounds be pooled (`pooled`) */
  latencies?: number[];
}

/** Rounds pooled: requests/s averaged, p50/p99 over every request of every round. */
export function pooled(results: LoadResult[]): LoadResult {
  const all = results.flatMap((r) => r.latencies ?? []).sort((a, b) => a - b);
  const pct = (p: number) => all[Math.min(all.length - 1, Math.floor(all.length * p))] ?? NaN;
  return {
    requests: all.length,
    errors: results.reduce((s, r) => s + r.errors, 0),
    rps: results.reduce((s, r) => s + r.rps, 0) / Math.max(1, results.length),
    p50: pct(0.5),
    p99: pct(0.99),
    firstError: results.find((r) => r.firstError)?.firstError,
  };
}

export function once(base: string, req: LoadRequest, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.path, base);
    const headers = {
      ...req.headers,
      ...(req.body
        ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(req.body)) }
        : {}),
    };
    const r = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: req.method, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (req.body) r.write(req.body);
    r.end();
  });
}

/** `next(n)` gives the n-th request (lets a scenario vary its path or body). */
export async function load(
  base: string,
  next: (n: number) => LoadRequest,
  connections: number,
  seconds: number,
  okStatus: number,
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const res = await once(base, next(n++), agent);
        if (res.status !== okStatus) {
          errors++;
          firstError ??= `${res.status} ${res.body.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        firstError ??= String(err);
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: pct(0.5),
    p99: pct(0.99),
    firstError,
    latencies,
  };
}
