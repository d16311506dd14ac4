import { hash, randomBytes } from 'node:crypto';

/**
 * SHA-256 hex digest of `value`'s UTF-8 bytes; how every opaque token (session, refresh, API key)
 * is stored. Node's one-shot `crypto.hash` (no `Hash` object per call: about 0.3 against 0.8 µs).
 */
export function sha256(value: string): string {
  return hash('sha256', value, 'hex');
}

/** `bytes` random bytes as lower-case hex (2 × bytes characters). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A URL-safe opaque token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
