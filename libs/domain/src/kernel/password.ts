import * as argon2 from 'argon2';

/**
 * argon2id with OWASP's first recommended parameter set (Password Storage Cheat Sheet):
 * m = 19 MiB, t = 2, p = 1.
 */
const OWASP_ARGON2ID = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OWASP_ARGON2ID);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password; with no stored hash it still spends one verification on a dummy hash,
 * so an unknown email and a wrong password take the same time.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('meridian-timing-equaliser');
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
