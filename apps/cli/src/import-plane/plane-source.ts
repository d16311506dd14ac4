/**
 * A reader of Plane's External API v1 (`/api/v1/`, `X-API-Key`; Plane 0.25.3
 * `apiserver/plane/api/urls/*.py`, `api/rate_limit.py`, `utils/paginator.py`) with Node's fetch:
 * the cursor envelope followed page by page, the key's rate limit honoured, transient failures
 * retried.
 *
 * Rate limit (Plane `ApiKeyRateThrottle`, 60 per minute by default): every answer that passed the
 * throttle carries `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds). While requests
 * remain, the next one goes at once; at 0 the reader waits until the reset time. A 429 is waited
 * out for its `Retry-After` seconds (60 when absent) and retried.
 */
export interface SourceOptions {
  url: string;
  apiKey: string;
  /** stop with `RequestLimitReached` after this many requests (tests simulate a failure with it) */
  maxRequests?: number;
  /** progress and waiting notes */
  log?: (line: string) => void;
  /** injectable for tests */
  sleep?: (ms: number) => Promise<void>;
}

/** The source answered with a status the importer cannot use. */
export class SourceError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly body: string,
  ) {
    super(`${status} from the source for ${path}: ${body.slice(0, 300)}`);
  }
}

/** `--max-requests` was reached: the run stops as a failure would. */
export class RequestLimitReached extends Error {}

interface Envelope<T> {
  results: T[];
  next_cursor?: string;
  next_page_results?: boolean;
}

const PER_PAGE = 100;
const MAX_ATTEMPTS = 6;

export class PlaneSource {
  /** requests sent, retries included */
  requests = 0;
  /** 429 answers waited out */
  throttled = 0;
  private remaining: number | null = null;
  private resetAt = 0;
  private readonly base: string;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: SourceOptions) {
    this.base = options.url.replace(/\/+$/, '');
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** One object (or bare array). `null` for a 404 when `optional` (a route this source does not expose, or nothing there). */
  async get<T>(path: string, optional = false): Promise<T | null> {
    for (let attempt = 1; ; attempt++) {
      await this.waitForHeadroom();
      if (this.options.maxRequests !== undefined && this.requests >= this.options.maxRequests) {
        throw new RequestLimitReached(`stopped after ${this.requests} requests (--max-requests)`);
      }
      this.requests++;
      let res: Response;
      try {
        res = await fetch(`${this.base}/api/v1/${path}`, {
          headers: { 'X-API-Key': this.options.apiKey, Accept: 'application/json' },
          signal: AbortSignal.timeout(60_000),
        });
      } catch (err) {
        if (attempt >= MAX_ATTEMPTS) throw err;
        await this.backoff(attempt, `network error (${(err as Error).message})`);
        continue;
      }
      this.readLimit(res);
      if (res.status === 429) {
        this.throttled++;
        const wait = retryAfterMs(res.headers.get('retry-after'));
        this.options.log?.(`rate limited by the source; waiting ${Math.ceil(wait / 1000)} s`);
        await res.body?.cancel();
        await this.sleep(wait);
        if (attempt >= MAX_ATTEMPTS) throw new SourceError(429, path, 'still rate limited');
        continue;
      }
      if (res.status >= 500 && attempt < MAX_ATTEMPTS) {
        await res.body?.cancel();
        await this.backoff(attempt, `${res.status} from the source`);
        continue;
      }
      const text = await res.text();
      if (res.status === 404 && optional) return null;
      if (!res.ok) throw new SourceError(res.status, path, text);
      try {
        return (text ? JSON.parse(text) : null) as T;
      } catch {
        // a web page or another site where Plane's API was expected (a wrong --url)
        throw new SourceError(res.status, path, `an answer that is not JSON: ${text.slice(0, 80)}`);
      }
    }
  }

  /** Every item of a list: follows `next_cursor` while `next_page_results`; a bare array is taken whole. */
  async all<T>(path: string, optional = false): Promise<T[] | null> {
    const out: T[] = [];
    const sep = path.includes('?') ? '&' : '?';
    let cursor = `${PER_PAGE}:0:0`;
    for (;;) {
      const page = await this.get<Envelope<T> | T[]>(`${path}${sep}per_page=${PER_PAGE}&cursor=${cursor}`, optional);
      if (page === null) return out.length ? out : null;
      if (Array.isArray(page)) return page;
      out.push(...(page.results ?? []));
      if (!page.next_page_results || !page.next_cursor || page.next_cursor === cursor) return out;
      cursor = page.next_cursor;
    }
  }

  private readLimit(res: Response) {
    const remaining = res.headers.get('x-ratelimit-remaining');
    const reset = res.headers.get('x-ratelimit-reset');
    if (remaining !== null && /^\d+$/.test(remaining)) this.remaining = Number(remaining);
    if (reset !== null && /^\d+$/.test(reset)) this.resetAt = Number(reset) * 1000;
  }

  /** Waits only when the source said no request remains, until its reset time (at most 60 s). */
  private async waitForHeadroom() {
    if (this.remaining !== 0) return;
    const wait = Math.min(Math.max(this.resetAt - Date.now(), 0), 60_000);
    if (wait > 0) {
      this.options.log?.(`source rate limit reached; waiting ${Math.ceil(wait / 1000)} s`);
      await this.sleep(wait);
    }
    this.remaining = null;
  }

  private async backoff(attempt: number, why: string) {
    const wait = Math.min(1000 * 2 ** (attempt - 1), 30_000);
    this.options.log?.(`${why}; retrying in ${Math.ceil(wait / 1000)} s`);
    await this.sleep(wait);
  }
}

/** `Retry-After` in seconds or as an HTTP date; 60 s when absent or unreadable. */
function retryAfterMs(value: string | null): number {
  if (value && /^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = value ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? 60_000 : Math.max(date - Date.now(), 0);
}
