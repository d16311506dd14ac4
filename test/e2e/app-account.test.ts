import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The signed-in user's account settings (Plane `plane/app/views/user/base.py`, `notification/base.py`):
 * notification preferences, instance admin status, linked accounts, the session probe, deactivation.
 */
describe('App API: account settings', () => {
  let t: TestApp;
  let ada: SignedUp;
  let bob: SignedUp;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    bob = await signUp(t);
  });
  after(() => t.close());

  it("notification-preferences: made on first read with Plane's defaults and fields", async () => {
    const r = await t.api.get('/api/users/me/notification-preferences/').set(bearer(ada));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body).sort(), [
      'comment',
      'created_at',
      'created_by',
      'deleted_at',
      'id',
      'issue_completed',
      'mention',
      'project',
      'property_change',
      'state_change',
      'updated_at',
      'updated_by',
      'user',
      'workspace',
    ]);
    assert.equal(r.body.user, ada.userId);
    for (const k of ['property_change', 'state_change', 'comment', 'mention', 'issue_completed'])
      assert.equal(r.body[k], true, k);
    const again = await t.api.get('/api/users/me/notification-preferences/').set(bearer(ada));
    assert.equal(again.body.id, r.body.id);
  });

  it('notification-preferences: PATCH changes only the given switches, per user; 422 a non-boolean', async () => {
    const r = await t.api
      .patch('/api/users/me/notification-preferences/')
      .set(bearer(bob))
      .send({ comment: false, mention: false, user: ada.userId, bogus: 1 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.comment, false);
    assert.equal(r.body.mention, false);
    assert.equal(r.body.state_change, true);
    assert.equal(r.body.user, bob.userId);
    const read = await t.api.get('/api/users/me/notification-preferences/').set(bearer(bob));
    assert.equal(read.body.comment, false);
    const other = await t.api.get('/api/users/me/notification-preferences/').set(bearer(ada));
    assert.equal(other.body.comment, true);
    assertError(
      await t.api.patch('/api/users/me/notification-preferences/').set(bearer(bob)).send({ comment: 'nope' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.patch('/api/users/me/notification-preferences/').set(bearer(bob)).send({ mention: null }),
      422,
      'VALIDATION_ERROR',
    );
    assert.equal((await t.api.get('/api/users/me/notification-preferences/')).status, 401);
  });

  it('instance-admin: false for a user, true for an instance admin', async () => {
    const r = await t.api.get('/api/users/me/instance-admin/').set(bearer(ada));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { is_instance_admin: false });
    const u = await signUp(t);
    await t.sql(
      'INSERT INTO instance_admins (user_id, instance_id, role) SELECT $1, instance_id, 20 FROM instance_admins LIMIT 1',
      [u.userId],
    );
    assert.deepEqual((await t.api.get('/api/users/me/instance-admin/').set(bearer(u))).body, {
      is_instance_admin: true,
    });
    // an instance admin may not deactivate their account
    assertError(await t.api.delete('/api/users/me/').set(bearer(u)), 400, 'DEACTIVATE_INSTANCE_ADMIN');
  });

  it("accounts: the linked OAuth accounts without tokens; retrieve and unlink only one's own", async () => {
    const empty = await t.api.get('/api/users/me/accounts/').set(bearer(ada));
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);
    const [row] = await t.sql<{ id: string }>(
      "INSERT INTO user_accounts (user_id, provider, provider_account_id) VALUES ($1, 'github', '4242') RETURNING id",
      [ada.userId],
    );
    const list = await t.api.get('/api/users/me/accounts/').set(bearer(ada));
    assert.equal(list.body.length, 1);
    assert.deepEqual(Object.keys(list.body[0]).sort(), [
      'created_at',
      'id',
      'last_connected_at',
      'metadata',
      'provider',
      'provider_account_id',
      'updated_at',
      'user',
    ]);
    assert.equal(list.body[0].provider, 'github');
    assert.equal((await t.api.get(`/api/users/me/accounts/${row.id}/`).set(bearer(ada))).status, 200);
    assertError(await t.api.get(`/api/users/me/accounts/${row.id}/`).set(bearer(bob)), 404, 'NOT_FOUND');
    assertError(await t.api.delete(`/api/users/me/accounts/${row.id}/`).set(bearer(bob)), 404, 'NOT_FOUND');
    assert.equal((await t.api.delete(`/api/users/me/accounts/${row.id}/`).set(bearer(ada))).status, 204);
    assert.deepEqual((await t.api.get('/api/users/me/accounts/').set(bearer(ada))).body, []);
  });

  it('users/session: who is signed in, never a 401', async () => {
    const anon = await t.api.get('/api/users/session/');
    assert.equal(anon.status, 200);
    assert.deepEqual(anon.body, { is_authenticated: false });
    const bad = await t.api.get('/api/users/session/').set({ Authorization: 'Bearer nope' });
    assert.deepEqual(bad.body, { is_authenticated: false });
    const r = await t.api.get('/api/users/session/').set(bearer(ada));
    assert.equal(r.status, 200);
    assert.equal(r.body.is_authenticated, true);
    assert.equal(r.body.user.id, ada.userId);
    assert.ok(!('password' in r.body.user));
  });

  it('DELETE users/me: refused for the only Admin of a shared workspace; else deactivates and signs out', async () => {
    const owner = await signUp(t);
    const helper = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    await addMember(t, ws.id, helper.userId, 15);
    assertError(await t.api.delete('/api/users/me/').set(bearer(owner)), 400, 'DEACTIVATE_ONLY_WORKSPACE_ADMIN');

    // the only Admin of a project with other members
    const lead = await signUp(t);
    await addMember(t, ws.id, lead.userId, 20);
    const p = await createAppProject(t, lead.token, ws.slug, { network: 0 });
    await addProjectMember(t, ws.id, p.id, helper.userId, 15);
    assertError(await t.api.delete('/api/users/me/').set(bearer(lead)), 400, 'DEACTIVATE_ONLY_PROJECT_ADMIN');

    // a Member leaves everything
    const gone = await t.api.delete('/api/users/me/').set(bearer(helper));
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    assert.equal((await t.api.get('/api/users/me/').set(bearer(helper))).status, 401);
    const rows = await t.sql<{ is_active: boolean }>('SELECT is_active FROM users WHERE id = $1', [helper.userId]);
    assert.equal(rows[0].is_active, false);
    const members = await t.sql('SELECT 1 FROM workspace_members WHERE member_id = $1 AND is_active', [helper.userId]);
    assert.equal(members.length, 0);
    const signIn = await t.api.post('/auth/sign-in/').send({ email: helper.email, password: helper.password });
    assert.notEqual(signIn.status, 200);
    assert.equal((await t.api.delete('/api/users/me/')).status, 401);
  });
});
