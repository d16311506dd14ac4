import type Redis from 'ioredis';

/**
 * A Redis client for state shared between processes that a request may wait for (`REDIS_URL`):
 * no offline queue and no retry of a command, so that a command fails at once while Redis is away
 * and after `commandTimeoutMs` when it does not answer (the caller falls back to its process's
 * memory); it reconnects in the background (every 0.2–2 s). ioredis is loaded here, only when
 * Redis is used (a quarter of a second of start-up otherwise).
 */
export function failFastRedis(url: string, commandTimeoutMs: number): Redis {
  const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
  return new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
}

/** Waits (at most `timeoutMs`) for `redis`'s first connection; whether it is ready. */
export function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.once('ready', onReady);
  });
}
