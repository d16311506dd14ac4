import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const INFO = 'meridian:instance-configuration:v1';
const SALT = 'meridian-instance-configuration';

/**
 * Authenticated encryption for stored secrets (instance configuration values Plane marks
 * encrypted): AES-256-GCM with a random 96-bit IV per value, under a 256-bit key derived from
 * `SECRET_KEY` with HKDF-SHA256. Stored form: `v1:<iv>:<tag>:<ciphertext>` (base64url).
 * Changing `SECRET_KEY` makes stored secrets unreadable (`open` returns null; they must be set again).
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `purpose` separates keys of different kinds of secrets (HKDF info); the default is the instance configuration's. */
  constructor(secretKey: string, purpose: string = INFO) {
    this.key = Buffer.from(hkdfSync('sha256', secretKey, SALT, purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      data.toString('base64url'),
    ].join(':');
  }

  /** The plaintext, or null when the value is not a sealed value or was sealed under another key. */
  open(sealed: string): string | null {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
