import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { MeridianError } from '../errors/meridian.error';
import { FailedAuthLimiter } from '../throttling/failed-auth-limiter';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { sha256 } from '../util/secrets';
import { AccessCache } from './access-cache';
import { apiKeyDigest } from './api-key-digest';
import { AUTH_SCHEME, AuthScheme } from './auth.decorators';
import { routeSetting } from './route-settings';
import {
  CREDENTIAL_VERIFIER,
  CredentialVerifier,
  INSTANCE_ADMIN_VERIFIER,
  InstanceAdminVerifier,
  Principal,
} from './principal';
import { accessTokenCacheKey, apiKeyCacheKey } from './strategies';
import { adminCookieOf, passesCsrfCheck, sessionCookieOf } from './web-session';
import { httpRequestOf, httpResponseOf } from '../http/http-context';

/** Error codes of a presented but refused credential: they count against `FAILED_AUTH_RATE_LIMIT`. */
const FAILED_CREDENTIAL = new Set(['INVALID_ACCESS_TOKEN', 'INVALID_API_KEY']);

function presentsCredential(req: Request): boolean {
  return Boolean(req.headers['x-api-key'] || req.headers.authorization);
}

/**
 * Passport guard for one strategy that answers failures with Meridian's error codes:
 * no credential → 401 `AUTHENTICATION_REQUIRED`; a wrong, expired or revoked one → 401
 * `INVALID_ACCESS_TOKEN` / `INVALID_API_KEY` (docs/reference/http-interface.md §5, rule 4).
 */
function strategyGuard(strategy: 'bearer' | 'api-key' | 'instance-admin') {
  @Injectable()
  class StrategyGuard extends AuthGuard(strategy) {
    override handleRequest<T>(err: unknown, user: T, _info: unknown, context: ExecutionContext): T {
      if (err) throw err;
      if (user) return user;
      const req = context.switchToHttp().getRequest<Request>();
      if (strategy === 'bearer' || strategy === 'instance-admin') {
        context.switchToHttp().getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer');
        const bearer = /^bearer\s+\S/i.test(req.headers.authorization ?? '');
        throw new MeridianError(bearer ? 'INVALID_ACCESS_TOKEN' : 'AUTHENTICATION_REQUIRED');
      }
      throw new MeridianError(req.headers['x-api-key'] ? 'INVALID_API_KEY' : 'AUTHENTICATION_REQUIRED');
    }
  }
  return StrategyGuard;
}

export const BearerGuard = strategyGuard('bearer');
export const ApiKeyGuard = strategyGuard('api-key');
export const InstanceAdminGuard = strategyGuard('instance-admin');

/**
 * Default-deny authentication, bound as a global guard. Every route must declare its scheme
 * (`@BearerAuth()`, `@ApiKeyAuth()`, `@InstanceAdminAuth()` or `@Public()`) on the handler or its controller; a route that
 * declares none is refused with 401, and a test lists every route's scheme. Wrong credentials
 * count per client address (`FailedAuthLimiter`, `FAILED_AUTH_RATE_LIMIT`): past the limit, 429.
 *
 * Without an `Authorization` header, session routes also accept Plane's web session cookie and
 * instance admin routes the admin cookie (`web-session.ts`); `@ApiKeyAuth()` routes (`/api/v1/`)
 * never look at cookies. An unknown or expired cookie is a 401 `AUTHENTICATION_REQUIRED`; an unsafe
 * request authenticated by a cookie without the CSRF token or from an untrusted origin is a 403
 * `CSRF_FAILED`.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly guards: Record<'session' | 'api-key' | 'instance-admin', IAuthGuard>;

  constructor(
    private readonly failures: FailedAuthLimiter,
    private readonly cache: AccessCache,
    @Inject(CREDENTIAL_VERIFIER) private readonly credentials: CredentialVerifier,
    @Inject(INSTANCE_ADMIN_VERIFIER) private readonly admins: InstanceAdminVerifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.guards = {
      session: new BearerGuard(),
      'api-key': new ApiKeyGuard(),
      'instance-admin': new InstanceAdminGuard(),
    };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scheme = routeSetting<AuthScheme>(context, AUTH_SCHEME);
    if (scheme === 'public') return true;
    if (scheme === undefined) throw new MeridianError('AUTHENTICATION_REQUIRED');
    const req = httpRequestOf<Request>(context);
    const res = httpResponseOf<Response>(context);
    const presented = presentsCredential(req);
    if (!presented && scheme !== 'api-key') {
      const cookie = scheme === 'session' ? sessionCookieOf(req, this.config) : adminCookieOf(req);
      if (cookie !== undefined) return this.byCookie(req, scheme, cookie);
    }
    if (presented) {
      await this.failures.check(req, res);
      const known = this.verifiedRecently(req, scheme);
      if (known) {
        (req as Request & { user?: Principal }).user = known;
        return true;
      }
    }
    try {
      return (await this.guards[scheme].canActivate(context)) as boolean;
    } catch (err) {
      if (presented && err instanceof MeridianError && FAILED_CREDENTIAL.has(err.code))
        await this.failures.record(req, res);
      throw err;
    }
  }

  /**
   * The principal of a credential its strategy verified within the access cache's life
   * (`AccessCache`), read from the cache under the strategy's own key and extracted as the strategy
   * extracts it (`X-API-Key`; `Authorization: Bearer <token>` as passport-http-bearer splits it),
   * else undefined: the strategy then runs through passport. A hit answers what the strategy would
   * (it returns the same cached principal) without passport's per-request set-up, which was about a
   * tenth of a single read's allocation (BENCHMARKS.md). Instance admin tokens are not cached.
   */
  private verifiedRecently(req: Request, scheme: 'session' | 'api-key' | 'instance-admin'): Principal | undefined {
    if (!this.cache.enabled) return undefined;
    if (scheme === 'api-key') {
      const digest = apiKeyDigest(req);
      return digest === null ? undefined : (this.cache.peek<Principal | null>(apiKeyCacheKey(digest)) ?? undefined);
    }
    if (scheme !== 'session') return undefined;
    const parts = req.headers.authorization?.split(' ');
    if (parts?.length !== 2 || !/^Bearer$/i.test(parts[0])) return undefined;
    return this.cache.peek<Principal | null>(accessTokenCacheKey(parts[1])) ?? undefined;
  }

  /** Authenticates by a web session or admin cookie, then applies the CSRF check (`passesCsrfCheck`). */
  private async byCookie(req: Request, scheme: 'session' | 'instance-admin', cookie: string): Promise<boolean> {
    const principal =
      scheme === 'session'
        ? await this.cache.get(
            `w:${sha256(cookie)}`,
            () => this.credentials.verifyWebSessionToken(cookie),
            (p: Principal | null) => p !== null,
            (p: Principal | null) => p?.expiresAt,
          )
        : await this.admins.verifyInstanceAdminToken(cookie);
    if (!principal) throw new MeridianError('AUTHENTICATION_REQUIRED');
    if (!passesCsrfCheck(req, this.config)) throw new MeridianError('CSRF_FAILED');
    (req as Request & { user?: Principal }).user = principal;
    return true;
  }
}
