import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The signed-in user's account settings: notification preferences (Plane's UserNotificationPreferenceEndpoint). */
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
      await t.api.patch('/api/users/me/notification-preferences/').set(bearer(bob)).send({ comment: 'no' }),
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
});
