import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { failFastRedis, redisReady } from '../redis/fail-fast-redis';
import {
  MemoryRateLimitStore,
  RateLimitStore,
  throttlerRecord,
  ThrottlerStorageRecord,
  WindowState,
} from './rate-limit-store';

/** Fixed window: count, and start the window (PEXPIRE) on the first request. → {count, ms left} */
const INCREMENT = `
local n = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {n, left}`;

/** Sliding window in a sorted set scored by Redis's clock (one clock for every process). */
const WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ttl)
if ARGV[2] ~= '' then
  redis.call('ZADD', KEYS[1], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
local count = redis.call('ZCARD', KEYS[1])
if count == 0 then return {0, 0} end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {count, tonumber(oldest[2]) + ttl - now}`;

interface Scripts {
  meridianIncrement(key: string, ttlMs: number): Promise<[number, number]>;
  meridianWindow(key: string, ttlMs: number, id: string): Promise<[number, number]>;
}

/** How long a warning about Redis is not repeated. */
const WARN_EVERY_MS = 30_000;

/**
 * The rate-limit store on Redis (ioredis), chosen by `REDIS_URL`: every process that uses the
 * same Redis and `REDIS_KEY_PREFIX` shares the counters, so limits hold across replicas. Each
 * operation is one Lua script (atomic). Keys: `<prefix>rl:<key>`.
 *
 * When Redis cannot be reached or does not answer within `commandTimeoutMs`, it fails open to
 * this process's memory (`MemoryRateLimitStore`): requests are neither refused nor delayed, limits
 * keep holding per process, and a warning is logged (at most every 30 s) until Redis answers
 * again. ioredis's offline queue is off, so nothing waits for a reconnection.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryRateLimitStore();
  private readonly logger = new Logger('RateLimitStore');
  private lastWarning = 0;
  private degraded = false;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly commandTimeoutMs = 500,
  ) {
    this.redis = failFastRedis(url, commandTimeoutMs);
    this.redis.defineCommand('meridianIncrement', { numberOfKeys: 1, lua: INCREMENT });
    this.redis.defineCommand('meridianWindow', { numberOfKeys: 1, lua: WINDOW });
    this.redis.on('error', (err: Error) => this.warn(`Redis error (${err.message})`));
    this.redis.on('ready', () => {
      if (this.degraded) this.logger.log('Redis answers again: rate-limit counters are shared again');
      this.degraded = false;
    });
  }

  /** Waits (at most `timeoutMs`) for the first connection, so the first requests already share counters. */
  connected(timeoutMs = 2_000): Promise<boolean> {
    return redisReady(this.redis, timeoutMs);
  }

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    return this.run(
      async () => {
        const [count, left] = await this.scripts.meridianIncrement(this.key(key), ttl);
        return throttlerRecord(Number(count), Number(left), limit);
      },
      () => this.fallback.increment(key, ttl, limit),
    );
  }

  peek(key: string, ttlMs: number): Promise<WindowState> {
    return this.run(
      () => this.window(key, ttlMs, ''),
      () => this.fallback.peek(key, ttlMs),
    );
  }

  add(key: string, ttlMs: number, id: string): Promise<WindowState> {
    return this.run(
      () => this.window(key, ttlMs, id),
      () => this.fallback.add(key, ttlMs, id),
    );
  }

  remove(key: string, id: string): Promise<void> {
    return this.run(
      async () => {
        await this.redis.zrem(this.key(key), id);
        await this.fallback.remove(key, id);
      },
      () => this.fallback.remove(key, id),
    );
  }

  clear(key: string): Promise<void> {
    return this.run(
      async () => {
        await this.redis.del(this.key(key));
        await this.fallback.clear(key);
      },
      () => this.fallback.clear(key),
    );
  }

  async close(): Promise<void> {
    this.fallback.close();
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }

  private get scripts(): Scripts {
    return this.redis as unknown as Scripts;
  }

  private key(key: string): string {
    return `${this.prefix}rl:${key}`;
  }

  private async window(key: string, ttlMs: number, id: string): Promise<WindowState> {
    const now = Date.now();
    const [count, resetIn] = await this.scripts.meridianWindow(this.key(key), ttlMs, id);
    return { count: Number(count), resetAt: now + Number(resetIn) };
  }

  private async run<T>(onRedis: () => Promise<T>, inMemory: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') {
      this.warn(`Redis is not connected (${this.redis.status})`);
      return inMemory();
    }
    try {
      return await onRedis();
    } catch (err) {
      this.warn(`Redis command failed (${(err as Error).message})`);
      return inMemory();
    }
  }

  private warn(what: string): void {
    this.degraded = true;
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(`${what}: rate-limit counters fall back to this process's memory (limits hold per process only)`);
  }
}
