/** One sliding window of events (failed sign-ins, failed authentications). */
export interface WindowState {
  /** events in the window */
  count: number;
  /** when the oldest event leaves the window (ms since the epoch; now when there is none) */
  resetAt: number;
}

interface Event {
  at: number;
  id: string;
}

/**
 * In-memory sliding windows (one process): events per key over the last `ttlMs` milliseconds,
 * each with an id so that it can be taken back. The memory `RateLimitStore` keeps its sliding
 * windows here; the Redis store keeps them in sorted sets with the same behaviour.
 */
export class SlidingWindows {
  private readonly events = new Map<string, { ttlMs: number; list: Event[] }>();

  /** The events of `key` in the window, without adding one. */
  peek(key: string, ttlMs: number, now = Date.now()): WindowState {
    return this.state(this.live(key, ttlMs, now), ttlMs, now);
  }

  /** Records the event `id` and returns the window with it. */
  add(key: string, ttlMs: number, id: string, now = Date.now()): WindowState {
    const list = this.live(key, ttlMs, now);
    list.push({ at: now, id });
    this.events.set(key, { ttlMs, list });
    return this.state(list, ttlMs, now);
  }

  /** Takes the event `id` back (no effect when it is not there). */
  remove(key: string, id: string): void {
    const entry = this.events.get(key);
    if (entry) entry.list = entry.list.filter((e) => e.id !== id);
  }

  delete(key: string): void {
    this.events.delete(key);
  }

  clear(): void {
    this.events.clear();
  }

  /** Forgets the keys whose events have all left their window. */
  sweep(now = Date.now()): void {
    for (const [key, entry] of this.events) {
      entry.list = entry.list.filter((e) => e.at > now - entry.ttlMs);
      if (entry.list.length === 0) this.events.delete(key);
    }
  }

  private live(key: string, ttlMs: number, now: number): Event[] {
    const entry = this.events.get(key);
    if (!entry) return [];
    entry.list = entry.list.filter((e) => e.at > now - ttlMs);
    return entry.list;
  }

  private state(list: Event[], ttlMs: number, now: number): WindowState {
    return { count: list.length, resetAt: list.length > 0 ? list[0].at + ttlMs : now };
  }
}
