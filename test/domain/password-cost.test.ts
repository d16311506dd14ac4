import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '#common';
import { hashPassword, usePasswordHashCost, verifyPassword } from '#domain';

const PRODUCTION_PHC = /^\$argon2id\$v=19\$m=19456,p=1,t=2\$/;
const TEST_PHC = /^\$argon2id\$v=19\$m=1024,p=1,t=1\$/;

describe('domain: the password hash cost (PASSWORD_HASH_COST, kernel/password.ts)', () => {
  it('is production unless set; the test cost is refused outside NODE_ENV=test', () => {
    assert.equal(loadConfig({}).auth.passwordHashCost, 'production');
    assert.equal(
      loadConfig({ NODE_ENV: 'production', SECRET_KEY: 'f'.repeat(64) }).auth.passwordHashCost,
      'production',
    );
    assert.equal(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' }).auth.passwordHashCost, 'test');
    for (const NODE_ENV of ['production', 'development', undefined]) {
      assert.throws(
        () => loadConfig({ NODE_ENV, PASSWORD_HASH_COST: 'test' }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, /PASSWORD_HASH_COST=test is accepted only with NODE_ENV=test/);
          return true;
        },
      );
    }
    assert.throws(() => loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'cheap' }), ConfigError);
    // and the hashing refuses it too, whatever built the configuration
    assert.throws(
      () => usePasswordHashCost({ env: 'production', auth: { passwordHashCost: 'test' } as never }),
      /refused/,
    );
  });

  it('hashes with OWASP parameters at the production cost and cheap ones at the test cost; both verify', async () => {
    try {
      usePasswordHashCost(loadConfig({ NODE_ENV: 'test' }));
      const strong = await hashPassword('correct horse 1');
      assert.match(strong, PRODUCTION_PHC);
      usePasswordHashCost(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' }));
      const cheap = await hashPassword('correct horse 1');
      assert.match(cheap, TEST_PHC);
      for (const hash of [strong, cheap]) {
        assert.equal(await verifyPassword(hash, 'correct horse 1'), true);
        assert.equal(await verifyPassword(hash, 'correct horse 2'), false);
      }
      assert.equal(await verifyPassword(null, 'correct horse 1'), false);
    } finally {
      usePasswordHashCost(loadConfig({ NODE_ENV: 'test' }));
    }
  });
});
