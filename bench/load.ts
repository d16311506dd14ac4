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

/** What a load records: every request's latency (ms) and its errors; `send` times one request. */
class Recorder {
  readonly latencies: number[] = [];
  errors = 0;
  firstError?: string;
  readonly start = performance.now();

  constructor(
    readonly agent: Agent,
    private readonly okStatus: number,
  ) {}

  /** Sends `req` and records its latency when `keep`. */
  async send(base: string, req: LoadRequest, keep = true): Promise<void> {
    const t0 = performance.now();
    try {
      const res = await once(base, req, this.agent);
      if (res.status !== this.okStatus) {
        this.errors++;
        this.firstError ??= `${res.status} ${res.body.slice(0, 200)}`;
      }
    } catch (err) {
      this.errors++;
      this.firstError ??= String(err);
    }
    if (keep) this.latencies.push(performance.now() - t0);
  }

  result(): LoadResult {
    const elapsed = (performance.now() - this.start) / 1000;
    this.agent.destroy();
    const latencies = this.latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
    return {
      requests: latencies.length,
      errors: this.errors,
      rps: latencies.length / elapsed,
      p50: pct(0.5),
      p99: pct(0.99),
      firstError: this.firstError,
      latencies,
    };
  }
}

/** `next(n)` gives the n-th request (lets a scenario vary its path or body). */
export async function load(
  base: string,
  next: (n: number) => LoadRequest,
  connections: number,
  seconds: number,
  okStatus: number,
): Promise<LoadResult> {
  const rec = new Recorder(new Agent({ keepAlive: true, maxSockets: connections }), okStatus);
  let n = 0;
  const end = rec.start + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) await rec.send(base, next(n++));
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return rec.result();
}

/**
 * The web app's scrolling through a list paged by number: `connections` walkers, each asking
 * `page(from)`, `page(from + 1)`, … `page(to)` one after the other (the next once the previous is
 * read) and then again from `from`, for `seconds`. The latencies are those of the pages past `from`
 * for which `measured` holds (default: all of them): pages reached by walking.
 */
export async function walkLoad(
  base: string,
  page: (number: number) => LoadRequest,
  connections: number,
  seconds: number,
  range: { from: number; to: number; measured?: (number: number) => boolean },
  okStatus: number,
): Promise<LoadResult> {
  const rec = new Recorder(new Agent({ keepAlive: true, maxSockets: connections }), okStatus);
  const { from, to, measured = () => true } = range;
  const end = rec.start + seconds * 1000;
  const walker = async () => {
    let number = from;
    while (performance.now() < end) {
      await rec.send(base, page(number), number > from && measured(number));
      number = number >= to ? from : number + 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, walker));
  return rec.result();
}
