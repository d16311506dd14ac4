import { ThrottlerException } from '@nestjs/throttler';
import type { Response } from 'express';
import { markRateLimited } from '../operations/metrics';

/** One limit that applies to a request, as its headers would show it. */
interface ShownLimit {
  limit: number;
  remaining: number;
  /** Unix seconds when the window frees a slot / resets */
  resetAt: number;
}

type Locals = { rateLimits?: Map<string, ShownLimit> };

/**
 * Records a limit that applies to this response under `tag` (a later call with the same tag replaces
 * it) and writes the headers of the strictest one (fewest requests left;
 * docs/reference/http-interface.md §8, Plane's names as in `plane/api/rate_limit.py`):
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (Unix seconds).
 */
export function showRateLimit(
  res: Response,
  tag: string,
  limit: number,
  remaining: number,
  resetAtSeconds: number,
): void {
  const locals = res.locals as Locals;
  locals.rateLimits ??= new Map();
  locals.rateLimits.set(tag, { limit, remaining: Math.max(0, remaining), resetAt: resetAtSeconds });
  let shown: ShownLimit | undefined;
  for (const l of locals.rateLimits.values()) if (!shown || l.remaining < shown.remaining) shown = l;
  if (!shown || res.headersSent) return;
  res.setHeader('X-RateLimit-Limit', String(shown.limit));
  res.setHeader('X-RateLimit-Remaining', String(shown.remaining));
  res.setHeader('X-RateLimit-Reset', String(shown.resetAt));
}

/** Changes the remaining count of a limit already shown under `tag` (e.g. an attempt taken back). */
export function adjustShownRateLimit(res: Response, tag: string, by: number): void {
  const shown = (res.locals as Locals).rateLimits?.get(tag);
  if (shown) showRateLimit(res, tag, shown.limit, shown.remaining + by, shown.resetAt);
}

/**
 * Refuses the request with 429 `RATE_LIMIT_EXCEEDED`: the headers show `limit` with nothing
 * left, and `Retry-After` the seconds until `resetAtMs` (at least 1).
 */
export function refuseRateLimited(res: Response, tag: string, limit: number, resetAtMs: number): never {
  const retryAfter = Math.max(1, Math.ceil((resetAtMs - Date.now()) / 1000));
  showRateLimit(res, tag, limit, 0, Math.ceil(resetAtMs / 1000));
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', '0');
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(resetAtMs / 1000)));
  res.setHeader('Retry-After', String(retryAfter));
  markRateLimited(res, tag);
  throw new ThrottlerException();
}
