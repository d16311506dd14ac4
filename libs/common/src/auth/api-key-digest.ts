import type { Request } from 'express';
import { sha256 } from '../util/secrets';

const DIGEST = Symbol('meridian:api-key-digest');

type WithDigest = Request & { [DIGEST]?: string | null };

/**
 * The SHA-256 (hex) of the request's `X-API-Key`, or null without one. Computed once per request
 * and kept on it: the rate-limit tracker (per key) and the API key verification (the stored
 * `token_digest`) use the same value.
 */
export function apiKeyDigest(req: Request): string | null {
  const r = req as WithDigest;
  if (r[DIGEST] === undefined) {
    const key = req.headers['x-api-key'];
    r[DIGEST] = typeof key === 'string' && key !== '' ? sha256(key) : null;
  }
  return r[DIGEST];
}
