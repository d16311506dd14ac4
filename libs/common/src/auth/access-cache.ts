import {
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import type Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/app-config';

/** At most this many entries; past it the oldest go first (one map, insertion order). */
const MAX_ENTRIES = 20_000;
/** How long a warning about the invalidation channel is not repeated. */
const WARN_EVERY_MS = 30_000;

interface Entry {
  value: unknown;
  /** epoch ms */
  expires: number;
}

/**
 * A short-lived cache, in this process, of what authentication and scoping resolve on every
 * request: an API key or access token (by its SHA-256) → the principal, (user, workspace slug) →
 * the workspace and role, (workspace, project, user) → the project access. A hit saves the
 * statement each of them runs (issue #11: small requests at the speed of the bare stack).
 *
 * Freshness, the rules that make a cache of access safe:
 * - An entry lives at most `ACCESS_CACHE_TTL_MS` (default 5000 ms; 0 turns the cache off), and a
 *   credential's entry never outlives the credential (`expiresAt`).
 * - Every committed write to a table that access depends on (the domain's `AccessChangeSubscriber`:
 *   API keys, sessions and tokens, users, workspaces and their members, projects and their members)
 *   calls `invalidate()`, which empties the whole cache of this process and, with `REDIS_URL`,
 *   of every other process through a Redis channel (`<REDIS_KEY_PREFIX>access-cache`). A
 *   revoked key, a removed member or a lowered role is therefore refused on the next request.
 * - A value loaded while an invalidation happened is returned but not stored (generation
 *   check): a request that read the old rows just before a revocation committed cannot put them
 *   back in the cache.
 * - When the channel is down (Redis unreachable), other processes are stale for at most the TTL;
 *   when it comes back, each process empties its cache (it may have missed messages). Changes made
 *   outside the service (SQL by hand, the CLI) are also seen within the TTL.
 * - Only positive credential results are stored: an unknown key is looked up every time (failed
 *   authentications are rate-limited per address instead).
 */
@Injectable()
export class AccessCache implements OnModuleInit, OnApplicationShutdown {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private readonly ttlMs: number;
  private readonly logger = new Logger('AccessCache');
  private readonly origin = randomUUID();
  private readonly channel: string | null;
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private lastWarning = 0;
  private readonly clearListeners = new Set<() => void>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.ttlMs = config.auth.accessCacheTtlMs;
    this.channel = config.redis && this.ttlMs > 0 ? `${config.redis.keyPrefix}access-cache` : null;
  }

  /** Connects the invalidation channel (with `REDIS_URL` and the cache on). */
  onModuleInit(): void {
    if (!this.channel || !this.config.redis) return;
    // loaded here: ioredis is only needed with REDIS_URL
    const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
    const options = {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
      retryStrategy: (n: number) => Math.min(n * 200, 2_000),
    };
    this.publisher = new RedisClient(this.config.redis.url, options);
    this.subscriber = new RedisClient(this.config.redis.url, { ...options, enableOfflineQueue: true });
    for (const client of [this.publisher, this.subscriber]) client.on('error', (err: Error) => this.warn(err.message));
    this.subscriber.on('ready', () => this.clear()); // messages may have been missed while it was away
    this.subscriber.on('message', (_channel: string, origin: string) => {
      if (origin !== this.origin) this.clear();
    });
    void this.subscriber.subscribe(this.channel).catch((err: Error) => this.warn(err.message));
  }

  async onApplicationShutdown(): Promise<void> {
    // QUIT only on a live connection: on one still (re)connecting it would wait for Redis
    await Promise.all(
      [this.publisher, this.subscriber].map((c) =>
        c?.status === 'ready' ? c.quit().catch(() => c.disconnect()) : c?.disconnect(),
      ),
    );
  }

  /** True when entries are kept (`ACCESS_CACHE_TTL_MS` > 0). */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /**
   * The cached value of `key`, or `load()`'s, stored unless `store(value)` says no or an
   * invalidation happened meanwhile. `expiresAt(value)` (epoch ms) shortens the entry's life.
   */
  async get<T>(
    key: string,
    load: () => Promise<T>,
    store: (value: T) => boolean = () => true,
    expiresAt?: (value: T) => number | undefined,
  ): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expires > now) return hit.value as T;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && store(value)) {
      const expires = Math.min(now + this.ttlMs, expiresAt?.(value) ?? Infinity);
      if (expires > Date.now()) {
        if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, { value, expires });
      }
    }
    return value;
  }

  /** The live entry of `key`, or undefined (absent, expired, or the cache off); loads nothing. */
  peek<T>(key: string): T | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expires > Date.now() ? (hit.value as T) : undefined;
  }

  /** Empties this process's cache and tells the other processes (through Redis) to do the same. */
  invalidate(): void {
    this.clear();
    if (this.publisher && this.channel) {
      this.publisher.publish(this.channel, this.origin).catch((err: Error) => this.warn(err.message));
    }
  }

  /**
   * Calls `listener` after every emptying of this process's cache (an access change committed here,
   * or announced by another process through Redis). Long-lived holders of access (the live editing
   * connections) check again then. Returns the function that removes the listener.
   */
  onClear(listener: () => void): () => void {
    this.clearListeners.add(listener);
    return () => this.clearListeners.delete(listener);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
    for (const listener of this.clearListeners) listener();
  }

  private warn(reason: string): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn(
      `access cache invalidation channel unavailable (${reason}): other processes see access changes within ACCESS_CACHE_TTL_MS`,
    );
  }
}

/** Provides `AccessCache` everywhere (the authentication strategies, the scope guards, the domain's invalidation). */
@Global()
@Module({})
export class AccessCacheModule {
  static forRoot(): DynamicModule {
    return { module: AccessCacheModule, providers: [AccessCache], exports: [AccessCache] };
  }
}
