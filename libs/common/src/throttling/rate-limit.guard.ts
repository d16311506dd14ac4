import { applyDecorators, ExecutionContext, Inject, Injectable, SetMetadata, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerGenerateKeyFunction,
  ThrottlerGetTrackerFunction,
  ThrottlerModuleOptions,
  ThrottlerOptions,
  ThrottlerRequest,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { apiKeyDigest } from '../auth/api-key-digest';
import { AUTH_SCHEME, AuthScheme } from '../auth/auth.decorators';
import { APP_CONFIG, AppConfig, RateLimit } from '../config/app-config';
import { sha256 } from '../util/secrets';
import { adjustShownRateLimit, refuseRateLimited, showRateLimit } from './rate-limit-headers';
import { RATE_LIMIT_STORE, RateLimitStore } from './rate-limit-store';
import { setSignInAttempt, SignInAttemptInterceptor } from './sign-in-attempt.interceptor';

/** Throttler names; each applies to the routes of one auth scheme, or to the routes marked `@AuthRateLimit`. */
export const THROTTLER = { API_KEY: 'api-key', AUTH: 'auth', PUBLIC: 'public' } as const;

export const AUTH_RATE_LIMIT = 'meridian:auth-rate-limit';
export const PUBLIC_RATE_LIMIT = 'meridian:public-rate-limit';

/**
 * The routes of a controller (or one route) count against the Public API limit
 * (`PUBLIC_RATE_LIMIT`, per client address, all marked routes of one address counted together),
 * whatever their auth scheme: published boards are read anonymously.
 */
export const PublicRateLimit = () => SetMetadata(PUBLIC_RATE_LIMIT, true);

/**
 * How an auth route is limited on top of the per-address limit (`AUTH_RATE_LIMIT`, all marked
 * routes of one address counted together, except `'sign-up'`):
 * - `'sign-in'` (password) and `'magic-sign-in'` also bind `SignInAttemptInterceptor`, which settles the attempt;
 * - `'sign-in'` (password): failed sign-ins (401 answers) count per (email, client address)
 *   against `AUTH_FAILED_SIGN_IN_LIMIT` (the lock of that address) and per email against the
 *   looser `AUTH_FAILED_SIGN_IN_EMAIL_LIMIT`; at either limit the email's password sign-ins are
 *   refused with 429 (from that address, or from all) until the window frees a slot;
 * - `'magic-sign-in'`: wrong codes count per (email, address) against `AUTH_FAILED_SIGN_IN_LIMIT`,
 *   apart from passwords; a successful magic sign-in clears the email's password lock (per email,
 *   and for its address), so a locked-out user gets back in through their mailbox;
 * - `'email'`: every request counts against `AUTH_EMAIL_RATE_LIMIT` per email (mail sent, email checked);
 * - `'address'`: only the per-address limit;
 * - `'sign-up'`: account creation, per address against `AUTH_SIGN_UP_RATE_LIMIT` instead of `AUTH_RATE_LIMIT`.
 * The email is the body's `email`, trimmed and lower-cased; the counters hold its SHA-256.
 */
export type AuthLimitKind = 'sign-in' | 'magic-sign-in' | 'email' | 'address' | 'sign-up';
export const AuthRateLimit = (kind: AuthLimitKind) =>
  kind === 'sign-in' || kind === 'magic-sign-in'
    ? applyDecorators(SetMetadata(AUTH_RATE_LIMIT, kind), UseInterceptors(SignInAttemptInterceptor))
    : SetMetadata(AUTH_RATE_LIMIT, kind);

/**
 * The tracker of the API-key throttler: a digest of the presented key (`apiKeyDigest`, computed
 * once per request), so the limit is counted per key and not per address; requests without a key
 * are counted per address. The counter covers every v1 route and method together.
 */
export function apiKeyTracker(req: Request): string {
  const digest = apiKeyDigest(req);
  return digest ? `key:${digest}` : `ip:${req.ip}`;
}

/** The tracker of the auth and public throttlers: the client address (behind proxies, see `TRUST_PROXY`). */
export function addressTracker(req: Request): string {
  return `ip:${req.ip}`;
}

function emailKey(req: Request): string | null {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== 'string' || email.trim() === '') return null;
  return sha256(email.trim().toLowerCase());
}

/** What the limits need to know about a route: read from its metadata once, then kept. */
interface RoutePlan {
  /** the throttlers (`THROTTLER`) that count this route's requests */
  throttlers: ReadonlySet<string>;
  authKind: AuthLimitKind | undefined;
}

const metadata = new Reflector();
const plans = new WeakMap<object, WeakMap<object, RoutePlan>>();

/**
 * The route's `RoutePlan`: the API-key throttler for `@ApiKeyAuth()` routes, the auth throttler for
 * `@AuthRateLimit` routes (but `'sign-up'`), the public one for `@PublicRateLimit()` routes. Kept
 * per (controller, handler): the metadata does not change after start.
 */
export function routePlan(context: ExecutionContext): RoutePlan {
  const handler = context.getHandler();
  const controller = context.getClass();
  let byHandler = plans.get(controller);
  if (!byHandler) plans.set(controller, (byHandler = new WeakMap()));
  let plan = byHandler.get(handler);
  if (!plan) {
    const targets = [handler, controller];
    const authKind = metadata.getAllAndOverride<AuthLimitKind | undefined>(AUTH_RATE_LIMIT, targets);
    const throttlers = new Set<string>();
    if (metadata.getAllAndOverride<AuthScheme | undefined>(AUTH_SCHEME, targets) === 'api-key')
      throttlers.add(THROTTLER.API_KEY);
    if (authKind && authKind !== 'sign-up') throttlers.add(THROTTLER.AUTH);
    if (metadata.getAllAndOverride<boolean | undefined>(PUBLIC_RATE_LIMIT, targets)) throttlers.add(THROTTLER.PUBLIC);
    byHandler.set(handler, (plan = { throttlers, authKind }));
  }
  return plan;
}

/**
 * The `skipIf` of throttler `name`: @nestjs/throttler skips it (before reading any per-route
 * option) on the routes it does not apply to.
 */
export function unlessThrottled(name: string): (context: ExecutionContext) => boolean {
  return (context) => !routePlan(context).throttlers.has(name);
}

/** @nestjs/throttler's metadata keys (its `throttler.constants`), each followed by a throttler's name. */
const THROTTLER_SKIP = 'THROTTLER:SKIP';
const THROTTLER_LIMIT = 'THROTTLER:LIMIT';
const THROTTLER_TTL = 'THROTTLER:TTL';
const THROTTLER_BLOCK_DURATION = 'THROTTLER:BLOCK_DURATION';
const THROTTLER_TRACKER = 'THROTTLER:TRACKER';
const THROTTLER_KEY_GENERATOR = 'THROTTLER:KEY_GENERATOR';

type Resolvable<T> = T | ((context: ExecutionContext) => T | Promise<T>);

/** One throttler as it applies to one route. */
interface RouteThrottler {
  throttler: ThrottlerOptions;
  limit: Resolvable<number>;
  ttl: Resolvable<number>;
  blockDuration: Resolvable<number> | undefined;
  getTracker: ThrottlerGetTrackerFunction;
  generateKey: ThrottlerGenerateKeyFunction;
}

/** A throttler's option as @nestjs/throttler reads it: called when a function, a number (or numeric string). */
async function numberOf(
  context: ExecutionContext,
  value: Resolvable<number>,
  option: string,
  name: string | undefined,
): Promise<number> {
  const resolved: unknown = typeof value === 'function' ? await value(context) : value;
  const number = typeof resolved === 'string' && resolved.trim() !== '' ? Number(resolved) : resolved;
  if (typeof number !== 'number' || Number.isNaN(number))
    throw new Error(
      `Invalid "${option}" for the "${name ?? 'default'}" throttler: expected a number, got ${JSON.stringify(resolved)}.`,
    );
  return number;
}

interface Counter {
  /** header tag */
  tag: string;
  key: string;
  rate: RateLimit;
}

/**
 * @nestjs/throttler guard that runs before authentication, so every response of a throttled surface
 * carries the limit headers (docs/reference/http-interface.md §8; Plane's names as in
 * `plane/api/rate_limit.py`, no throttler suffix): `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (Unix seconds when the window resets), plus `Retry-After` (seconds) on a 429.
 * When several limits apply (auth routes: per address and per email), the headers show the one with
 * the fewest requests left. Every counter lives in the `RateLimitStore` (memory, or Redis with
 * `REDIS_URL`).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly routes = new WeakMap<object, WeakMap<object, RouteThrottler[]>>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storageService: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
  ) {
    super(options, storageService, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const { throttlers, authKind: kind } = routePlan(context);
    if (throttlers.size > 0) await this.countAgainst(context);
    if (kind === 'sign-in' || kind === 'magic-sign-in') await this.countSignInAttempt(context, kind);
    else if (kind === 'email') await this.limitPerEmail(context);
    else if (kind === 'sign-up') await this.limitSignUp(context);
    return true;
  }

  /**
   * What @nestjs/throttler's `canActivate` does for a route, with the route's metadata read once:
   * each throttler that applies (`skipIf`: `unlessThrottled`; none skipped by `@SkipThrottle`)
   * counts the request (`handleRequest`) with its limit, window and block duration (a route's
   * `@Throttle` values over the module's). The library reads eight metadata keys per throttler
   * and request through `Reflector`, about 2 % of a single read's CPU (BENCHMARKS.md "Per-request
   * costs"); the metadata does not change after start.
   */
  private async countAgainst(context: ExecutionContext): Promise<void> {
    for (const t of this.routeThrottlers(context)) {
      if (t.throttler.skipIf?.(context)) continue;
      const limit = await numberOf(context, t.limit, 'limit', t.throttler.name);
      const ttl = await numberOf(context, t.ttl, 'ttl', t.throttler.name);
      const blockDuration = await numberOf(context, t.blockDuration ?? ttl, 'blockDuration', t.throttler.name);
      await this.handleRequest({ ...t, context, limit, ttl, blockDuration });
    }
  }

  /** The throttlers of the route (those not skipped by `@SkipThrottle`), with its metadata. */
  private routeThrottlers(context: ExecutionContext): RouteThrottler[] {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.routes.get(controller);
    if (!byHandler) this.routes.set(controller, (byHandler = new WeakMap()));
    let found = byHandler.get(handler);
    if (!found) {
      const targets = [handler, controller];
      const meta = <T>(key: string, name: string) => this.reflector.getAllAndOverride<T>(key + name, targets);
      found = this.throttlers
        .filter((throttler) => !meta<boolean>(THROTTLER_SKIP, throttler.name ?? 'default'))
        .map((throttler) => {
          const name = throttler.name ?? 'default';
          return {
            throttler,
            limit: meta<Resolvable<number>>(THROTTLER_LIMIT, name) ?? throttler.limit,
            ttl: meta<Resolvable<number>>(THROTTLER_TTL, name) ?? throttler.ttl,
            blockDuration: meta<Resolvable<number>>(THROTTLER_BLOCK_DURATION, name) ?? throttler.blockDuration,
            getTracker:
              meta<ThrottlerGetTrackerFunction>(THROTTLER_TRACKER, name) ??
              throttler.getTracker ??
              this.commonOptions.getTracker!,
            generateKey:
              meta<ThrottlerGenerateKeyFunction>(THROTTLER_KEY_GENERATOR, name) ??
              throttler.generateKey ??
              this.commonOptions.generateKey!,
          };
        });
      byHandler.set(handler, found);
    }
    return found;
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker } = props;
    const name = throttler.name ?? 'default';
    const { req, res } = this.getRequestResponse(context) as { req: Request; res: Response };
    const tracker = await getTracker(req, context);
    // one counter per tracker for all routes and methods of the surface: the key leaves out the route
    const hit = await this.storageService.increment(`${name}:${tracker}`, ttl, limit, blockDuration, name);
    const resetsIn = hit.isBlocked ? hit.timeToBlockExpire : hit.timeToExpire;
    if (hit.isBlocked) refuseRateLimited(res, name, limit, Date.now() + resetsIn * 1000);
    showRateLimit(res, name, limit, limit - hit.totalHits, Math.floor(Date.now() / 1000) + resetsIn);
    return true;
  }

  private requestResponse(context: ExecutionContext): { req: Request; res: Response } {
    return this.getRequestResponse(context) as { req: Request; res: Response };
  }

  /**
   * Counts the attempt as a failure before the credentials are checked (so concurrent guesses
   * cannot pass the limit); `SignInAttemptInterceptor` takes it back unless the answer is a 401.
   */
  private async countSignInAttempt(context: ExecutionContext, kind: 'sign-in' | 'magic-sign-in'): Promise<void> {
    const { req, res } = this.requestResponse(context);
    const email = emailKey(req);
    if (!email) return;
    const limits = this.config.rateLimits;
    const lock = (what: string): Counter => ({
      tag: `${what}:address`,
      key: `sign-in:${what}:${email}:${req.ip}`,
      rate: limits.authFailedSignIn,
    });
    const passwordCeiling: Counter = {
      tag: 'password:email',
      key: `sign-in:password:${email}`,
      rate: limits.authFailedSignInPerEmail,
    };
    const counters = kind === 'sign-in' ? [lock('password'), passwordCeiling] : [lock('magic')];
    const id = randomUUID();
    const states = await Promise.all(counters.map((c) => this.store.add(c.key, c.rate.ttlMs, id)));
    const over = counters.map((c, i) => ({ c, s: states[i] })).filter(({ c, s }) => s.count > c.rate.limit);
    if (over.length > 0) {
      await Promise.all(counters.map((c) => this.store.remove(c.key, id)));
      const last = over.reduce((a, b) => (b.s.resetAt > a.s.resetAt ? b : a));
      refuseRateLimited(res, last.c.tag, last.c.rate.limit, last.s.resetAt);
    }
    counters.forEach((c, i) =>
      showRateLimit(res, c.tag, c.rate.limit, c.rate.limit - states[i].count, Math.ceil(states[i].resetAt / 1000)),
    );
    setSignInAttempt(req, {
      settle: async (outcome) => {
        if (outcome === 'failed') return;
        await Promise.all(counters.map((c) => this.store.remove(c.key, id)));
        counters.forEach((c) => adjustShownRateLimit(res, c.tag, 1));
        if (kind === 'magic-sign-in' && outcome === 'signed-in') {
          // the mailbox proved the user: their password lock (this address, and per email) ends
          await Promise.all([lock('password'), passwordCeiling, lock('magic')].map((c) => this.store.clear(c.key)));
        }
      },
    });
  }

  /** `'email'` routes: every request counts against `AUTH_EMAIL_RATE_LIMIT` for the body's email. */
  private async limitPerEmail(context: ExecutionContext): Promise<void> {
    const { req, res } = this.requestResponse(context);
    const email = emailKey(req);
    if (!email) return;
    const rate = this.config.rateLimits.authEmail;
    const key = `email:${email}`;
    const id = randomUUID();
    const state = await this.store.add(key, rate.ttlMs, id);
    if (state.count > rate.limit) {
      await this.store.remove(key, id);
      refuseRateLimited(res, 'email', rate.limit, state.resetAt);
    }
    showRateLimit(res, 'email', rate.limit, rate.limit - state.count, Math.ceil(state.resetAt / 1000));
  }

  /** `'sign-up'` routes: account creation per client address (`AUTH_SIGN_UP_RATE_LIMIT`). */
  private async limitSignUp(context: ExecutionContext): Promise<void> {
    const { req, res } = this.requestResponse(context);
    const rate = this.config.rateLimits.signUp;
    const hit = await this.store.increment(`sign-up:${addressTracker(req)}`, rate.ttlMs, rate.limit, 0, 'sign-up');
    if (hit.isBlocked) refuseRateLimited(res, 'sign-up', rate.limit, Date.now() + hit.timeToBlockExpire * 1000);
    showRateLimit(
      res,
      'sign-up',
      rate.limit,
      rate.limit - hit.totalHits,
      Math.floor(Date.now() / 1000) + hit.timeToExpire,
    );
  }
}
