import { ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerException, ThrottlerGuard, ThrottlerModuleOptions,
  ThrottlerRequest, ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { AUTH_SCHEME, AuthScheme } from '../auth/auth.decorators';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { SlidingWindowCounter } from './sliding-window';

/** Throttler names; each applies to the routes of one auth scheme, or to the routes marked `@AuthRateLimit`. */
export const THROTTLER = { API_KEY: 'api-key', AUTH: 'auth', PUBLIC: 'public' } as const;

const SCHEME_OF: Record<string, AuthScheme> = { [THROTTLER.API_KEY]: 'api-key' };

export const AUTH_RATE_LIMIT = 'meridian:auth-rate-limit';
export const PUBLIC_RATE_LIMIT = 'meridian:public-rate-limit';

/**
 * The routes of a controller (or one route) count against the Public API limit
 * (`PUBLIC_RATE_LIMIT`, per client address, all marked routes of one address counted together),
 * whatever their auth scheme: published boards are read anonymously.
 */
export const PublicRateLimit = () => SetMetadata(PUBLIC_RATE_LIMIT, true);

/**
 * How an auth route is limited per email (the body's `email`), on top of the per-address limit
 * (`AUTH_RATE_LIMIT`, all marked routes of one address counted together):
 * - `'sign-in'`: failed sign-ins (401 answers) count against `AUTH_FAILED_SIGN_IN_LIMIT`; once
 *   reached, the email's sign-ins are refused with 429 until the window frees a slot;
 * - `'email'`: every request counts against `AUTH_EMAIL_RATE_LIMIT` (mail sent, email checked);
 * - `'address'`: only the per-address limit.
 */
export type AuthLimitKind = 'sign-in' | 'email' | 'address';
export const AuthRateLimit = (kind: AuthLimitKind) => SetMetadata(AUTH_RATE_LIMIT, kind);

/**
 * The tracker of the API-key throttler: a digest of the presented key, so the limit is counted per
 * key and not per address; requests without a key are counted per address.
 */
export function apiKeyTracker(req: Request): string {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string' && key !== '') return `key:${createHash('sha256').update(key).digest('hex')}`;
  return `ip:${req.ip}`;
}

/** The tracker of the auth throttler: the client address (behind a proxy, see `TRUST_PROXY`). */
export function addressTracker(req: Request): string {
  return `ip:${req.ip}`;
}

function emailKey(req: Request): string | null {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string' || email.trim() === '') return null;
  return createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

interface Shown {
  remaining: number;
}

/**
 * @nestjs/throttler guard that runs before authentication, so every response of a throttled
 * surface carries the limit headers (spec part 8; Plane's names, no throttler suffix):
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds when the
 * window resets), plus `Retry-After` (seconds) on a 429. When several limits apply (auth routes:
 * per address and per email), the headers show the one with the fewest requests left.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly failedSignIns: SlidingWindowCounter;
  private readonly emailRequests: SlidingWindowCounter;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storageService: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(options, storageService, reflector);
    this.failedSignIns = new SlidingWindowCounter(config.rateLimits.authFailedSignIn.limit, config.rateLimits.authFailedSignIn.ttlMs);
    this.emailRequests = new SlidingWindowCounter(config.rateLimits.authEmail.limit, config.rateLimits.authEmail.ttlMs);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    await super.canActivate(context);
    const kind = this.authKind(context);
    if (kind === 'sign-in' || kind === 'email') this.limitPerEmail(context, kind);
    return true;
  }

  private authKind(context: ExecutionContext): AuthLimitKind | undefined {
    return this.reflector.getAllAndOverride<AuthLimitKind | undefined>(AUTH_RATE_LIMIT, [context.getHandler(), context.getClass()]);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = props;
    const name = throttler.name ?? 'default';
    if (name === THROTTLER.AUTH) {
      if (!this.authKind(context)) return true;
    } else if (name === THROTTLER.PUBLIC) {
      if (!this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_RATE_LIMIT, [context.getHandler(), context.getClass()])) return true;
    } else {
      const scheme = this.reflector.getAllAndOverride<AuthScheme | undefined>(AUTH_SCHEME, [
        context.getHandler(),
        context.getClass(),
      ]);
      if (SCHEME_OF[name] !== scheme) return true;
    }

    const { req, res } = this.getRequestResponse(context) as { req: Request; res: Response };
    const tracker = await getTracker(req, context);
    // the auth and public limits are shared by all marked routes: the key leaves out the route
    const key = name === THROTTLER.AUTH || name === THROTTLER.PUBLIC ? `${name}:${tracker}` : generateKey(context, tracker, name);
    const hit = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    const resetsIn = hit.isBlocked ? hit.timeToBlockExpire : hit.timeToExpire;
    this.show(res, limit, limit - hit.totalHits, Math.floor(Date.now() / 1000) + resetsIn);
    if (hit.isBlocked) {
      res.setHeader('Retry-After', String(Math.max(1, hit.timeToBlockExpire)));
      throw new ThrottlerException();
    }
    return true;
  }

  private limitPerEmail(context: ExecutionContext, kind: 'sign-in' | 'email'): void {
    const { req, res } = this.getRequestResponse(context) as { req: Request; res: Response };
    const email = emailKey(req);
    if (!email) return;
    const now = Date.now();
    const counter = kind === 'sign-in' ? this.failedSignIns : this.emailRequests;
    const state = counter.peek(email, now);
    if (state.count >= counter.limit) {
      const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
      this.show(res, counter.limit, 0, Math.ceil(state.resetAt / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new ThrottlerException();
    }
    if (kind === 'email') {
      const after = counter.hit(email, now);
      this.show(res, counter.limit, counter.limit - after.count, Math.ceil(after.resetAt / 1000));
      return;
    }
    this.show(res, counter.limit, counter.limit - state.count, Math.ceil((state.count > 0 ? state.resetAt : now + counter.ttlMs) / 1000));
    // a failed sign-in (401) counts once the answer is known
    res.once('finish', () => {
      if (res.statusCode === 401) counter.hit(email);
    });
  }

  /** Writes the limit headers unless a stricter limit (fewer requests left) is already shown. */
  private show(res: Response, limit: number, remaining: number, resetAtSeconds: number): void {
    const locals = res.locals as { rateLimitShown?: Shown };
    const left = Math.max(0, remaining);
    if (locals.rateLimitShown && locals.rateLimitShown.remaining < left) return;
    locals.rateLimitShown = { remaining: left };
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(left));
    res.setHeader('X-RateLimit-Reset', String(resetAtSeconds));
  }
}
