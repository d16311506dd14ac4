import { createHash, randomBytes } from 'node:crypto';

/** SHA-256 hex digest; how every opaque token (session, refresh, API key) is stored. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** `bytes` random bytes as lower-case hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A URL-safe opaque token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
