import { Injectable } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, ThrottlerRequest } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AUTH_SCHEME, AuthScheme } from '../auth/auth.decorators';

/** Throttler names; each applies to the routes of one auth scheme. */
export const THROTTLER = { API_KEY: 'api-key' } as const;

const SCHEME_OF: Record<string, AuthScheme> = { [THROTTLER.API_KEY]: 'api-key' };

/**
 * The tracker of the API-key throttler: a digest of the presented key, so the limit is counted per
 * key and not per address; requests without a key are counted per address.
 */
export function apiKeyTracker(req: Request): string {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string' && key !== '') return `key:${createHash('sha256').update(key).digest('hex')}`;
  return `ip:${req.ip}`;
}

/**
 * @nestjs/throttler guard that runs before authentication, so every response of a throttled
 * surface carries the limit headers (spec part 8; Plane's names, no throttler suffix):
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds when the
 * window resets), plus `Retry-After` (seconds) on a 429.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = props;
    const scheme = this.reflector.getAllAndOverride<AuthScheme | undefined>(AUTH_SCHEME, [
      context.getHandler(),
      context.getClass(),
    ]);
    const name = throttler.name ?? 'default';
    if (SCHEME_OF[name] !== scheme) return true;

    const { req, res } = this.getRequestResponse(context) as { req: Request; res: Response };
    const tracker = await getTracker(req, context);
    const key = generateKey(context, tracker, name);
    const hit = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    const resetsIn = hit.isBlocked ? hit.timeToBlockExpire : hit.timeToExpire;
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - hit.totalHits)));
    res.setHeader('X-RateLimit-Reset', String(Math.floor(Date.now() / 1000) + resetsIn));
    if (hit.isBlocked) {
      res.setHeader('Retry-After', String(Math.max(1, hit.timeToBlockExpire)));
      throw new ThrottlerException();
    }
    return true;
  }
}
