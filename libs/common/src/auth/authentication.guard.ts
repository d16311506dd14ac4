import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, IAuthGuard } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { MeridianError } from '../errors/meridian.error';
import { FailedAuthLimiter } from '../throttling/failed-auth-limiter';
import { AUTH_SCHEME, AuthScheme } from './auth.decorators';

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
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly guards: Record<'session' | 'api-key' | 'instance-admin', IAuthGuard>;

  constructor(
    private readonly reflector: Reflector,
    private readonly failures: FailedAuthLimiter,
  ) {
    this.guards = { session: new BearerGuard(), 'api-key': new ApiKeyGuard(), 'instance-admin': new InstanceAdminGuard() };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scheme = this.reflector.getAllAndOverride<AuthScheme | undefined>(AUTH_SCHEME, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (scheme === 'public') return true;
    if (scheme === undefined) throw new MeridianError('AUTHENTICATION_REQUIRED');
    const http = context.switchToHttp();
    const [req, res] = [http.getRequest<Request>(), http.getResponse<Response>()];
    const presented = presentsCredential(req);
    if (presented) await this.failures.check(req, res);
    try {
      return (await this.guards[scheme].canActivate(context)) as boolean;
    } catch (err) {
      if (presented && err instanceof MeridianError && FAILED_CREDENTIAL.has(err.code)) await this.failures.record(req, res);
      throw err;
    }
  }
}
