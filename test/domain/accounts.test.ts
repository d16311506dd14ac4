import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AccountService, SessionService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith } from '../support/domain-fixtures';
import { unique } from '../support/fixtures';

const client = { ipAddress: '127.0.0.1', userAgent: 'domain tests' };

describe('domain: accounts and sessions (AccountService, SessionService)', () => {
  let d: DomainContext;
  let accounts: AccountService;
  let sessions: SessionService;
  domainSuite({ projects: 0 }, (s) => {
    d = s.d;
    accounts = d.get(AccountService);
    sessions = d.get(SessionService);
  });

  it('signs up once per email: the same address in other case and spacing is USER_ALREADY_EXIST, with nothing written', async () => {
    const email = `${unique('Once')}@Example.com`;
    const first = await accounts.signUp({ email, password: 'correct horse 1' }, client);
    assert.equal(first.user.email, email.toLowerCase());
    await rejectsWith(
      accounts.signUp({ email: `  ${email.toUpperCase()} `, password: 'another password' }, client),
      'USER_ALREADY_EXIST',
    );
    const users = await d.sql<{ id: string }>('SELECT id FROM users WHERE lower(email) = $1', [email.toLowerCase()]);
    assert.deepEqual(
      users.map((u) => u.id),
      [first.user.id],
    );
    const open = await d.sql('SELECT 1 FROM auth_sessions WHERE user_id = $1', [first.user.id]);
    assert.equal(open.length, 1, 'the refused sign-up opened no session');
  });

  it('signs in with the right password only; an unknown email fails the same way; a deactivated user is refused and its tokens stop', async () => {
    const email = `${unique('in')}@example.com`;
    const up = await accounts.signUp({ email, password: 'correct horse 1' }, client);
    const signedIn = await accounts.signIn({ email: ` ${email.toUpperCase()}`, password: 'correct horse 1' }, client);
    assert.equal(signedIn.user.id, up.user.id);
    assert.equal((await sessions.verifyAccessToken(signedIn.access_token))?.userId, up.user.id);
    await rejectsWith(accounts.signIn({ email, password: 'correct horse 2' }, client), 'AUTHENTICATION_FAILED_SIGN_IN');
    await rejectsWith(
      accounts.signIn({ email: `${unique('nobody')}@example.com`, password: 'correct horse 1' }, client),
      'AUTHENTICATION_FAILED_SIGN_IN',
    );

    await d.sql('UPDATE users SET is_active = false WHERE id = $1', [up.user.id]);
    await rejectsWith(accounts.signIn({ email, password: 'correct horse 1' }, client), 'USER_ACCOUNT_DEACTIVATED');
    assert.equal(await sessions.verifyAccessToken(signedIn.access_token), null);
    await rejectsWith(sessions.refresh(signedIn.refresh_token), 'INVALID_REFRESH_TOKEN');
  });

  it('rotates a refresh token once; presenting the used one again revokes the whole session', async () => {
    const up = await accounts.signUp({ email: `${unique('rot')}@example.com`, password: 'correct horse 1' }, client);
    const next = await sessions.refresh(up.refresh_token);
    assert.notEqual(next.access_token, up.access_token);
    assert.notEqual(next.refresh_token, up.refresh_token);
    assert.equal(
      await sessions.verifyAccessToken(up.access_token),
      null,
      'the old access token ended with the rotation',
    );
    const principal = await sessions.verifyAccessToken(next.access_token);
    assert.equal(principal?.userId, up.user.id);

    await rejectsWith(sessions.refresh(up.refresh_token), 'INVALID_REFRESH_TOKEN');
    assert.equal(await sessions.verifyAccessToken(next.access_token), null, 'the reuse revoked the session');
    await rejectsWith(sessions.refresh(next.refresh_token), 'INVALID_REFRESH_TOKEN');
    const [row] = await d.sql<{ revoked: boolean }>(
      'SELECT revoked_at IS NOT NULL AS revoked FROM auth_sessions WHERE id = $1',
      [principal!.sessionId],
    );
    assert.equal(row.revoked, true);
  });

  it('revokes all sessions of a user but the one kept', async () => {
    const email = `${unique('all')}@example.com`;
    const a = await accounts.signUp({ email, password: 'correct horse 1' }, client);
    const b = await accounts.signIn({ email, password: 'correct horse 1' }, client);
    const kept = (await sessions.verifyAccessToken(b.access_token))!.sessionId!;
    await sessions.revokeAllOfUser(a.user.id, kept);
    assert.equal(await sessions.verifyAccessToken(a.access_token), null);
    assert.equal((await sessions.verifyAccessToken(b.access_token))?.sessionId, kept);
  });
});
