import { APP_CONFIG, AppConfig } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import type * as Argon2 from 'argon2';

/**
 * argon2id with OWASP's first recommended parameter set (Password Storage Cheat Sheet):
 * m = 19 MiB, t = 2, p = 1.
 */
const OWASP_ARGON2ID = {
  type: 2 satisfies typeof Argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Test runs only (`PASSWORD_HASH_COST=test`, refused unless `NODE_ENV=test`): the same algorithm and
 * PHC string with m = 1 MiB, t = 1, p = 1, about 1 ms of CPU where OWASP's set takes about 35 ms.
 * A suite that signs up and signs in over a thousand times spends its CPU on the code under test.
 */
const TEST_ARGON2ID = {
  type: 2 satisfies typeof Argon2.argon2id,
  memoryCost: 1024,
  timeCost: 1,
  parallelism: 1,
} as const;

let loaded: typeof Argon2 | undefined;
/** argon2 (a native addon) is loaded on the first hash or verification, not at start. */
function argon2(): typeof Argon2 {
  return (loaded ??= require('argon2') as typeof Argon2);
}

export type PasswordHashCost = AppConfig['auth']['passwordHashCost'];

let cost: PasswordHashCost = 'production';

/**
 * Sets the parameters of the hashes `hashPassword` makes from now on in this process, from the
 * configuration (`config.auth.passwordHashCost`, `PASSWORD_HASH_COST`). `test` is refused unless
 * `config.env` is `test` (`loadConfig` refuses it too). Verifying reads the parameters stored in the
 * hash, so hashes made with either set keep verifying. `PasswordHashCostSetting` calls this when a
 * Nest application with the `KernelModule` starts; the default is `production`.
 */
export function usePasswordHashCost(config: Pick<AppConfig, 'env' | 'auth'>): void {
  const wanted = config.auth.passwordHashCost;
  if (wanted === 'test' && config.env !== 'test')
    throw new Error(`the test password hash cost is refused with NODE_ENV=${config.env}`);
  cost = wanted;
}

/** Applies `PASSWORD_HASH_COST` when the application that holds it is built (`KernelModule`). */
@Injectable()
export class PasswordHashCostSetting {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    usePasswordHashCost(config);
  }
}

export function hashPassword(password: string): Promise<string> {
  return argon2().hash(password, cost === 'test' ? TEST_ARGON2ID : OWASP_ARGON2ID);
}

/** one dummy hash per parameter set, so the no-user path costs what a real verification costs */
const dummyHashes = new Map<PasswordHashCost, Promise<string>>();

/**
 * Verifies a password; with no stored hash it still spends one verification on a dummy hash,
 * so an unknown email and a wrong password take the same time.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) {
    let dummy = dummyHashes.get(cost);
    if (!dummy) dummyHashes.set(cost, (dummy = hashPassword('meridian-timing-equaliser')));
    await argon2()
      .verify(await dummy, password)
      .catch(() => false);
    return false;
  }
  try {
    return await argon2().verify(hash, password);
  } catch {
    return false;
  }
}
