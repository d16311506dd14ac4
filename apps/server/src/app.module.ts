import {
  addressTracker,
  AllExceptionsFilter,
  apiKeyTracker,
  AppConfig,
  AppConfigModule,
  ApiKeyStrategy,
  AuthenticationGuard,
  BearerTokenStrategy,
  InstanceAdminTokenStrategy,
  ProjectAccessGuard,
  RateLimitGuard,
  RequestValidationPipe,
  RoutePrefilter,
  THROTTLER,
  unlessThrottled,
  WorkspaceAccessGuard,
} from '#common';
import {
  AccessCacheModule,
  OperationsModule,
  PageBookmarksModule,
  RATE_LIMIT_STORE,
  RateLimitStore,
  RateLimitStoreModule,
} from '#common';
import { DatabaseModule, ReadyDatabase } from '#database';
import { DomainModule } from '#domain';
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, RouterModule } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppApiModule } from './app-api/app-api.module';
import { AuthModule } from './auth/auth.module';
import { ExternalV1Module } from './external-v1/external-v1.module';
import { HealthModule } from './health/health.module';
import { InstanceModule } from './instance/instance.module';
import { LiveModule } from './live/live.module';
import { PublicModule } from './public/public.module';

/** The five HTTP modules and their base paths (docs/reference/http-interface.md §4). */
const API_MODULES = [
  { path: 'api/v1', module: ExternalV1Module },
  { path: 'api/public', module: PublicModule },
  { path: 'api/instances', module: InstanceModule },
  { path: 'api', module: AppApiModule },
  { path: 'auth', module: AuthModule },
];

/**
 * The HTTP service. Cross-cutting behaviour is bound here as global providers, so tests that
 * build this module run exactly the production pipeline: rate limit → authentication →
 * workspace scope → project scope → validation → handler, and one exception filter. No interceptor
 * is global (each one puts every request through rxjs): a `Page` is written as Plane's envelope
 * by its JSON form, and the sign-in routes bind `SignInAttemptInterceptor` (`@AuthRateLimit`).
 */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: ReadyDatabase): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        DatabaseModule.forRoot(database),
        // metrics and the stop sequence's draining flag (README "Metrics", "Replicas")
        OperationsModule.forRoot(config),
        // one store for every counter: this process's memory, or Redis with REDIS_URL
        RateLimitStoreModule.forRoot(config),
        // where the next page of a list paged by number starts: this process's memory, or Redis with REDIS_URL
        PageBookmarksModule.forRoot(config),
        // resolved credentials and roles, briefly (ACCESS_CACHE_TTL_MS); emptied on every access change
        AccessCacheModule.forRoot(),
        ThrottlerModule.forRootAsync({
          inject: [RATE_LIMIT_STORE],
          useFactory: (storage: RateLimitStore) => ({
            storage,
            throttlers: [
              {
                name: THROTTLER.API_KEY,
                skipIf: unlessThrottled(THROTTLER.API_KEY),
                ttl: config.rateLimits.apiKey.ttlMs,
                limit: config.rateLimits.apiKey.limit,
                getTracker: (req) => apiKeyTracker(req as never),
              },
              {
                name: THROTTLER.AUTH,
                skipIf: unlessThrottled(THROTTLER.AUTH),
                ttl: config.rateLimits.auth.ttlMs,
                limit: config.rateLimits.auth.limit,
                getTracker: (req) => addressTracker(req as never),
              },
              {
                name: THROTTLER.PUBLIC,
                skipIf: unlessThrottled(THROTTLER.PUBLIC),
                ttl: config.rateLimits.public.ttlMs,
                limit: config.rateLimits.public.limit,
                getTracker: (req) => addressTracker(req as never),
              },
            ],
          }),
        }),
        PassportModule,
        DomainModule,
        HealthModule,
        LiveModule,
        ...API_MODULES.map((m) => m.module),
        RouterModule.register(API_MODULES),
      ],
      providers: [
        BearerTokenStrategy,
        ApiKeyStrategy,
        InstanceAdminTokenStrategy,
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: AuthenticationGuard },
        { provide: APP_GUARD, useClass: WorkspaceAccessGuard },
        { provide: APP_GUARD, useClass: ProjectAccessGuard },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // once the routes are registered: a cheap test before each route's expression (route-prefilter.ts)
        RoutePrefilter,
      ],
    };
  }
}
