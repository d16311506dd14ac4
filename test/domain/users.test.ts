import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { UserProfileService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: a user’s own record (UserProfileService): the writable fields and their checks', () => {
  let d: DomainContext;
  let users: UserProfileService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({ d, p, other } = s);
    users = d.get(UserProfileService);
  });

  it('me: the user’s own record, without secrets; an unknown user is AUTHENTICATION_REQUIRED', async () => {
    const me = await users.me(p.userId);
    assert.equal(me.email, p.email);
    assert.equal(me.is_password_autoset, false);
    assert.equal(JSON.stringify(me).includes('password_hash'), false);
    assert.equal(JSON.stringify(me).includes('$argon2'), false);
    await rejectsWith(users.me(randomUUID()), 'AUTHENTICATION_REQUIRED');
  });

  it('an update changes only the fields given; an unknown time zone is a 422 with nothing written', async () => {
    const before = await users.me(p.userId);
    const changed = await users.update(p.userId, { first_name: 'Ada', user_timezone: 'Europe/Paris' });
    assert.equal(changed.first_name, 'Ada');
    assert.equal(changed.last_name, before.last_name);
    assert.equal(changed.user_timezone, 'Europe/Paris');
    const bad = await rejectsWith(
      users.update(p.userId, { first_name: 'Grace', user_timezone: 'Mars/Olympus' }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(Object.keys(bad.extra.errors as object), ['user_timezone']);
    const after = await users.me(p.userId);
    assert.equal(after.first_name, 'Ada', 'the refused update wrote nothing');
    assert.equal(after.user_timezone, 'Europe/Paris');
    // email and flags are not writable here
    await users.update(p.userId, { email: 'else@example.com', is_active: false } as never);
    const [row] = await d.sql<{ email: string; is_active: boolean }>(
      'SELECT email, is_active FROM users WHERE id = $1',
      [p.userId],
    );
    assert.deepEqual(row, { email: p.email, is_active: true });
  });

  it('a username is one user’s: taking another’s is CONFLICT and leaves both as they were', async () => {
    const name = `user_${randomUUID().slice(0, 8)}`;
    await users.update(other.userId, { username: name });
    await rejectsWith(users.update(p.userId, { username: name, display_name: 'Thief' }), 'CONFLICT');
    assert.equal((await users.me(other.userId)).username, name);
    assert.notEqual((await users.me(p.userId)).display_name, 'Thief');
    // keeping one's own is not a conflict
    assert.equal((await users.update(other.userId, { username: name })).username, name);
  });
});
