import type { ThrottlerStorage } from '@nestjs/throttler';
import { SlidingWindows, WindowState } from './sliding-window';

export type { WindowState } from './sliding-window';

/** What `ThrottlerStorage.increment` answers (the type is not exported by the package's index). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Where every rate-limit counter lives: @nestjs/throttler's `ThrottlerStorage` (fixed windows,
 * one counter per key) plus sliding windows of events, which the per-email and per-address
 * sign-in limits need because only some requests count (failures) and a success can take its
 * event back. Two implementations with the same behaviour: `MemoryRateLimitStore` (one process,
 * the default) and `RedisRateLimitStore` (shared by every process that uses one Redis;
 * `REDIS_URL`). Keys are the callers' (no prefix); ttl values are milliseconds.
 */
export interface RateLimitStore extends ThrottlerStorage {
  /**
   * Counts one request in the fixed window of `key` (the window starts at its first request and
   * lasts `ttl` ms). `isBlocked` once the count is over `limit`, until the window ends; the
   * times are whole seconds (as Nest's). `blockDuration` is not used: a block lasts as long as
   * the window.
   */
  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord>;
  /** The events of `key` in the last `ttlMs` ms, without adding one. */
  peek(key: string, ttlMs: number): Promise<WindowState>;
  /** Adds the event `id` (unique) to `key` and returns the window with it. */
  add(key: string, ttlMs: number, id: string): Promise<WindowState>;
  /** Takes the event `id` back (no effect when it is not there). */
  remove(key: string, id: string): Promise<void>;
  /** Forgets every event and count of `key`. */
  clear(key: string): Promise<void>;
}

/** Injection token of the `RateLimitStore` (the same object is the throttler's storage). */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** Builds the throttler's record from a fixed-window count and the window's remaining ms. */
export function throttlerRecord(totalHits: number, ttlLeftMs: number, limit: number): ThrottlerStorageRecord {
  const timeToExpire = Math.max(1, Math.ceil(ttlLeftMs / 1000));
  const isBlocked = totalHits > limit;
  return { totalHits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
}

/** The in-process store: fixed windows in a map, sliding windows in `SlidingWindows`, swept every minute. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; expiresAt: number }>();
  private readonly events = new SlidingWindows();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.expiresAt <= now) {
      w = { count: 0, expiresAt: now + ttl };
      this.windows.set(key, w);
    }
    w.count += 1;
    return throttlerRecord(w.count, w.expiresAt - now, limit);
  }

  async peek(key: string, ttlMs: number): Promise<WindowState> {
    return this.events.peek(key, ttlMs);
  }

  async add(key: string, ttlMs: number, id: string): Promise<WindowState> {
    return this.events.add(key, ttlMs, id);
  }

  async remove(key: string, id: string): Promise<void> {
    this.events.remove(key, id);
  }

  async clear(key: string): Promise<void> {
    this.events.delete(key);
    this.windows.delete(key);
  }

  /** Stops the sweeper and forgets everything. */
  close(): void {
    clearInterval(this.sweeper);
    this.windows.clear();
    this.events.clear();
  }

  private sweep(now = Date.now()): void {
    for (const [key, w] of this.windows) if (w.expiresAt <= now) this.windows.delete(key);
    this.events.sweep(now);
  }
}
