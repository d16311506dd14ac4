import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** The web app's image pickers: `GET /api/unsplash/` and `GET /api/project-covers/`. */
describe('App API: image pickers (Unsplash, project covers)', () => {
  let t: TestApp;
  let ada: SignedUp;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
  });
  after(() => t.close());

  it('answers [] without an instance Unsplash key, as Plane, and no stock covers', async () => {
    const unsplash = await t.api.get('/api/unsplash/?query=mountains&page=2&per_page=10').set(bearer(ada));
    assert.equal(unsplash.status, 200);
    assert.deepEqual(unsplash.body, []);
    const covers = await t.api.get('/api/project-covers/').set(bearer(ada));
    assert.equal(covers.status, 200);
    assert.deepEqual(covers.body, []);
  });

  it('needs a signed-in user and well-formed paging', async () => {
    assertError(await t.api.get('/api/unsplash/'), 401, 'AUTHENTICATION_REQUIRED');
    assertError(await t.api.get('/api/project-covers/'), 401, 'AUTHENTICATION_REQUIRED');
    assertError(await t.api.get('/api/unsplash/?page=0').set(bearer(ada)), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await t.api.get('/api/unsplash/?per_page=31').set(bearer(ada)), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await t.api.get('/api/unsplash/?query=a&query=b').set(bearer(ada)), 400, 'INVALID_QUERY_PARAMETER');
  });
});
