import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { FailedAuthLimiter } from './failed-auth-limiter';
import { MemoryRateLimitStore, RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { RedisRateLimitStore } from './redis-rate-limit-store';

/** The store `REDIS_URL` selects: Redis when it is set, this process's memory otherwise. */
export function createRateLimitStore(config: AppConfig): MemoryRateLimitStore | RedisRateLimitStore {
  return config.redis ? new RedisRateLimitStore(config.redis.url, config.redis.keyPrefix) : new MemoryRateLimitStore();
}

/** Waits for Redis at start (bounded) and closes the store on shutdown. */
@Injectable()
class RateLimitStoreLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async onModuleInit(): Promise<void> {
    if (this.store instanceof RedisRateLimitStore) await this.store.connected();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.store instanceof RedisRateLimitStore || this.store instanceof MemoryRateLimitStore)
      await this.store.close();
  }
}

/**
 * Provides `RATE_LIMIT_STORE` everywhere (the throttler's storage, the per-email and per-address
 * sign-in limits and `FailedAuthLimiter` use the one store).
 */
@Global()
@Module({})
export class RateLimitStoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RateLimitStoreModule,
      providers: [
        { provide: RATE_LIMIT_STORE, useFactory: () => createRateLimitStore(config) },
        RateLimitStoreLifecycle,
        FailedAuthLimiter,
      ],
      exports: [RATE_LIMIT_STORE, FailedAuthLimiter],
    };
  }
}
