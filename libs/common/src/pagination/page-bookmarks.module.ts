import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { MemoryPageBookmarks, PAGE_BOOKMARKS, PageBookmarks, RedisPageBookmarks } from './page-bookmarks';

/** The store `REDIS_URL` selects: Redis when it is set, this process's memory otherwise. */
export function createPageBookmarks(config: AppConfig): MemoryPageBookmarks | RedisPageBookmarks {
  return config.redis ? new RedisPageBookmarks(config.redis.url, config.redis.keyPrefix) : new MemoryPageBookmarks();
}

/** Waits for Redis at start (bounded) and closes a Redis store on shutdown. */
@Injectable()
class PageBookmarksLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(PAGE_BOOKMARKS) private readonly store: PageBookmarks) {}

  async onModuleInit(): Promise<void> {
    if (this.store instanceof RedisPageBookmarks) await this.store.connected();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.store instanceof RedisPageBookmarks) await this.store.close();
  }
}

/**
 * Provides `PAGE_BOOKMARKS` everywhere: where the next page of a list paged by number starts
 * (docs/decisions.md "Sequential deep pages from bookmarks").
 */
@Global()
@Module({})
export class PageBookmarksModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PageBookmarksModule,
      providers: [{ provide: PAGE_BOOKMARKS, useFactory: () => createPageBookmarks(config) }, PageBookmarksLifecycle],
      exports: [PAGE_BOOKMARKS],
    };
  }
}
