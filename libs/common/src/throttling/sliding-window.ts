/**
 * An in-memory sliding-window counter (one process, like the throttler's own storage): counts
 * events per key over the last `ttlMs` milliseconds. Used for the per-email auth limits, which
 * count only some events (failed sign-ins) and so need a look without a hit.
 */
export class SlidingWindowCounter {
  private readonly hits = new Map<string, number[]>();
  private operations = 0;

  constructor(
    readonly limit: number,
    readonly ttlMs: number,
  ) {}

  /** Events in the window, and when the oldest leaves it (ms epoch; now when none). */
  peek(key: string, now = Date.now()): { count: number; resetAt: number } {
    const live = this.prune(key, now);
    return { count: live.length, resetAt: live.length > 0 ? live[0] + this.ttlMs : now };
  }

  /** Records one event. */
  hit(key: string, now = Date.now()): { count: number; resetAt: number } {
    const live = this.prune(key, now);
    live.push(now);
    this.hits.set(key, live);
    if (++this.operations % 1000 === 0) this.sweep(now);
    return { count: live.length, resetAt: live[0] + this.ttlMs };
  }

  private prune(key: string, now: number): number[] {
    const list = this.hits.get(key);
    if (!list) return [];
    const live = list.filter((t) => t > now - this.ttlMs);
    if (live.length === 0) this.hits.delete(key);
    else if (live.length !== list.length) this.hits.set(key, live);
    return live;
  }

  private sweep(now: number): void {
    for (const key of [...this.hits.keys()]) this.prune(key, now);
  }
}
