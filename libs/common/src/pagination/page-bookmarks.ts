import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { failFastRedis, redisReady } from '../redis/fail-fast-redis';

/**
 * Where a page by number starts when the page before it was answered: the sort key of that page's
 * last row (PostgreSQL's text of it, which reads back as the same value) and its id. The page is
 * then the rows after `(key, id)` in the list's order (`paginateSql`).
 */
export interface PageBookmark {
  key: string;
  id: string;
}

/**
 * A bounded store of `PageBookmark`s: page `number` of the list `list` (a digest of the list's
 * statement, its values and the page size: `paginateSql`). `get` may answer at once or later;
 * `set` never waits and never fails (a bookmark lost is an offset read, not an error).
 */
export interface PageBookmarks {
  get(list: string, number: number): PageBookmark | undefined | Promise<PageBookmark | undefined>;
  set(list: string, number: number, bookmark: PageBookmark): void;
  /** Drops page `number`'s bookmark (the page before it was the last: a bookmark left from a longer list would not be). */
  forget(list: string, number: number): void;
}

/** Nest token of the process's `PageBookmarks` (`PageBookmarksModule`). */
export const PAGE_BOOKMARKS = Symbol('PAGE_BOOKMARKS');
/** How long a bookmark is kept after it was written, in ms: a user scrolling a list asks the next page within it. */
export const PAGE_BOOKMARK_TTL_MS = 5 * 60_000;
/** At most this many bookmarks in a process's memory (about 300 bytes each: 3 MB), least recently used dropped. */
export const PAGE_BOOKMARKS_KEPT = 10_000;

/**
 * `PageBookmarks` in this process's memory: a map in least-recently-used order, at most `max`
 * entries, each kept `ttlMs` after it was written.
 */
export class MemoryPageBookmarks implements PageBookmarks {
  private readonly marks = new Map<string, { until: number; mark: PageBookmark }>();

  constructor(
    private readonly ttlMs = PAGE_BOOKMARK_TTL_MS,
    private readonly max = PAGE_BOOKMARKS_KEPT,
  ) {}

  get size(): number {
    return this.marks.size;
  }

  get(list: string, number: number): PageBookmark | undefined {
    const id = `${list}:${number}`;
    const entry = this.marks.get(id);
    if (!entry) return undefined;
    this.marks.delete(id);
    if (entry.until <= Date.now()) return undefined;
    this.marks.set(id, entry);
    return entry.mark;
  }

  set(list: string, number: number, mark: PageBookmark): void {
    const id = `${list}:${number}`;
    this.marks.delete(id);
    this.marks.set(id, { until: Date.now() + this.ttlMs, mark });
    while (this.marks.size > this.max) this.marks.delete(this.marks.keys().next().value as string);
  }

  forget(list: string, number: number): void {
    this.marks.delete(`${list}:${number}`);
  }
}

/** How long a warning about Redis is not repeated. */
const WARN_EVERY_MS = 30_000;

/**
 * `PageBookmarks` on Redis (`REDIS_URL`), shared by every process with the same Redis and
 * `REDIS_KEY_PREFIX`, so that a user's next page finds its bookmark whichever replica answers it.
 * Keys `<prefix>page:<list>:<number>`, each with a TTL of `ttlMs` (Redis's memory stays bounded by
 * the rate of list requests over the TTL, about 150 bytes each). A `get` is one `GET` (at most
 * `commandTimeoutMs`); a `set` one `SET … PX` not waited for. When Redis is not connected or fails,
 * this process's memory stands in (`MemoryPageBookmarks`) and a warning is logged at most every 30 s:
 * pages are then read by offset where the bookmark was written by another process, never wrongly.
 */
export class RedisPageBookmarks implements PageBookmarks {
  private readonly redis: Redis;
  private readonly fallback: MemoryPageBookmarks;
  private readonly logger = new Logger('PageBookmarks');
  private lastWarning = 0;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly ttlMs = PAGE_BOOKMARK_TTL_MS,
    commandTimeoutMs = 200,
  ) {
    this.fallback = new MemoryPageBookmarks(ttlMs);
    this.redis = failFastRedis(url, commandTimeoutMs);
    this.redis.on('error', (err: Error) => this.warn(`Redis error (${err.message})`));
  }

  /** Waits (at most `timeoutMs`) for the first connection, so that the first pages already share bookmarks. */
  connected(timeoutMs = 2_000): Promise<boolean> {
    return redisReady(this.redis, timeoutMs);
  }

  get(list: string, number: number): PageBookmark | undefined | Promise<PageBookmark | undefined> {
    if (this.redis.status !== 'ready') return this.fallback.get(list, number);
    return this.redis.get(this.key(list, number)).then(
      (value) => {
        // `<id> <key>`: an id has no space, a key's text may
        const at = value === null ? -1 : value.indexOf(' ');
        return value !== null && at > 0 ? { id: value.slice(0, at), key: value.slice(at + 1) } : undefined;
      },
      (err: Error) => {
        this.warn(`Redis command failed (${err.message})`);
        return this.fallback.get(list, number);
      },
    );
  }

  set(list: string, number: number, mark: PageBookmark): void {
    if (this.redis.status !== 'ready') {
      this.fallback.set(list, number, mark);
      return;
    }
    this.redis.set(this.key(list, number), `${mark.id} ${mark.key}`, 'PX', this.ttlMs).catch((err: Error) => {
      this.warn(`Redis command failed (${err.message})`);
      this.fallback.set(list, number, mark);
    });
  }

  forget(list: string, number: number): void {
    this.fallback.forget(list, number);
    if (this.redis.status !== 'ready') return;
    this.redis.del(this.key(list, number)).catch((err: Error) => this.warn(`Redis command failed (${err.message})`));
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }

  private key(list: string, number: number): string {
    return `${this.prefix}page:${list}:${number}`;
  }

  private warn(what: string): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(`${what}: list page bookmarks fall back to this process's memory`);
  }
}
