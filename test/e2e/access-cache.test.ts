import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addMemberWithKey,
  addProjectMember,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  membershipId,
  projectMembershipId,
  signUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const bearer = { type: 'bearer' } as const;

/**
 * `AccessCache` (ACCESS_CACHE_TTL_MS): resolved keys, tokens and roles are reused for a while, and
 * every change of access made through the service empties the cache at once. The TTL is a minute
 * here, so each test below fails if a change does not reach the cache. (`t.sql` empties the cache
 * too: the tests look rows up before the requests that fill it.)
 */
describe('access cache: a change of access is seen by the next request', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ ACCESS_CACHE_TTL_MS: '60000' });
  });
  after(() => t.close());

  const v1Projects = (slug: string, key: string) =>
    t.api.get(`/api/v1/workspaces/${slug}/projects/`).set('X-API-Key', key);

  it('a revoked or deleted API key is refused on the next request after it was just used', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const created = await t.api
      .post(`/api/workspaces/${w.slug}/api-tokens/`)
      .auth(u.token, bearer)
      .send({ label: 'ci' });
    const path = `/api/workspaces/${w.slug}/api-tokens/${created.body.id}/`;
    for (let i = 0; i < 2; i++) assert.equal((await v1Projects(w.slug, created.body.token)).status, 200);
    assert.equal((await t.api.patch(path).auth(u.token, bearer).send({ is_active: false })).status, 200);
    assertError(await v1Projects(w.slug, created.body.token), 401, 'INVALID_API_KEY');

    const other = await createApiKey(t, u.token, w.slug);
    assert.equal((await v1Projects(w.slug, other)).status, 200);
    const id = (
      await t.sql<{ id: string }>('SELECT id FROM api_tokens WHERE workspace_id = $1 AND is_active = true', [w.id])
    )[0].id;
    assert.equal((await t.api.delete(`/api/workspaces/${w.slug}/api-tokens/${id}/`).auth(u.token, bearer)).status, 204);
    assertError(await v1Projects(w.slug, other), 401, 'INVALID_API_KEY');
  });

  it('a member removed from the workspace loses it at once, by key and by session', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const member = await signUp(t);
    const key = await addMemberWithKey(t, w, member, 15);
    const row = await membershipId(t, w.id, member.userId); // t.sql empties the cache: look up before the warm-up
    assert.equal((await v1Projects(w.slug, key)).status, 200);
    assert.equal((await t.api.get(`/api/workspaces/${w.slug}/members/`).auth(member.token, bearer)).status, 200);
    assert.equal(
      (await t.api.delete(`/api/workspaces/${w.slug}/members/${row}/`).auth(admin.token, bearer)).status,
      204,
    );
    assertError(await v1Projects(w.slug, key), 401, 'INVALID_API_KEY');
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/members/`).auth(member.token, bearer),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  it('a lowered workspace or project role applies to the next request', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const adminKey = await createApiKey(t, admin.token, w.slug);
    const member = await signUp(t);
    const key = await addMemberWithKey(t, w, member, 15);
    const p = await createProject(t, adminKey, w.slug);
    await addProjectMember(t, w.id, p.id, member.userId, 15);
    const projectRow = await projectMembershipId(t, p.id, member.userId);
    const second = await signUp(t);
    await addMember(t, w.id, second.userId, 20);
    const row = await membershipId(t, w.id, second.userId);
    // no t.sql from here: it would empty the cache
    const items = `/api/v1/workspaces/${w.slug}/projects/${p.id}/work-items/`;
    assert.equal((await t.api.post(items).set('X-API-Key', key).send({ name: 'as a member' })).status, 201);
    const demote = await t.api
      .patch(`/api/workspaces/${w.slug}/projects/${p.id}/members/${projectRow}/`)
      .auth(admin.token, bearer)
      .send({ role: 5 });
    assert.equal(demote.status, 200, JSON.stringify(demote.body));
    assertError(await t.api.post(items).set('X-API-Key', key).send({ name: 'as a guest' }), 403, 'PERMISSION_DENIED');

    // workspace Admin → Member: the Admin-only list of API keys is refused at once
    const tokens = `/api/workspaces/${w.slug}/api-tokens/`;
    assert.equal((await t.api.get(tokens).auth(second.token, bearer)).status, 200);
    assert.equal(
      (await t.api.patch(`/api/workspaces/${w.slug}/members/${row}/`).auth(admin.token, bearer).send({ role: 15 }))
        .status,
      200,
    );
    assertError(await t.api.get(tokens).auth(second.token, bearer), 403, 'PERMISSION_DENIED');
  });

  it('a member removed from a secret project, and a deleted project, are gone for the next request', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const adminKey = await createApiKey(t, admin.token, w.slug);
    const member = await signUp(t);
    const key = await addMemberWithKey(t, w, member, 15);
    const secret = await createProject(t, adminKey, w.slug, { network: 0 });
    await addProjectMember(t, w.id, secret.id, member.userId, 15);
    const row = await projectMembershipId(t, secret.id, member.userId);
    const states = (id: string, k: string) =>
      t.api.get(`/api/v1/workspaces/${w.slug}/projects/${id}/states/`).set('X-API-Key', k);
    assert.equal((await states(secret.id, key)).status, 200);
    const removed = await t.api
      .delete(`/api/workspaces/${w.slug}/projects/${secret.id}/members/${row}/`)
      .auth(admin.token, bearer);
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    assertError(await states(secret.id, key), 404, 'PROJECT_NOT_FOUND');

    const doomed = await createProject(t, adminKey, w.slug);
    assert.equal((await states(doomed.id, adminKey)).status, 200);
    assert.equal(
      (await t.api.delete(`/api/v1/workspaces/${w.slug}/projects/${doomed.id}/`).set('X-API-Key', adminKey)).status,
      204,
    );
    assertError(await states(doomed.id, adminKey), 404, 'PROJECT_NOT_FOUND');
  });

  it('a signed-out session is refused at once', async () => {
    const u = await signUp(t);
    assert.equal((await t.api.get('/api/users/me/').auth(u.token, bearer)).status, 200);
    assert.equal((await t.api.post('/auth/sign-out/').auth(u.token, bearer)).status < 300, true);
    assertError(await t.api.get('/api/users/me/').auth(u.token, bearer), 401, 'INVALID_ACCESS_TOKEN');
  });
});

describe('access cache: a change made outside the service is seen within ACCESS_CACHE_TTL_MS', () => {
  for (const ttl of [1500, 0]) {
    it(`ACCESS_CACHE_TTL_MS=${ttl}: a key deactivated by SQL is ${ttl ? 'served from the cache, then refused after the TTL' : 'refused at once'}`, async () => {
      const t = await startTestApp({ ACCESS_CACHE_TTL_MS: String(ttl) });
      try {
        const u = await signUp(t);
        const w = await createWorkspace(t, u.token);
        const key = await createApiKey(t, u.token, w.slug);
        const get = () => t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key);
        assert.equal((await get()).status, 200);
        // an operator's statement: no TypeORM event, so no invalidation (t.sql would empty the cache)
        await t.database.dataSource.query('UPDATE api_tokens SET is_active = false WHERE workspace_id = $1', [w.id]);
        if (ttl) {
          assert.equal((await get()).status, 200, 'the resolved key is reused within the TTL');
          await new Promise((resolve) => setTimeout(resolve, ttl + 200));
        }
        assertError(await get(), 401, 'INVALID_API_KEY');
      } finally {
        await t.close();
      }
    });
  }
});

/**
 * A credential verified moments ago is taken from the cache before passport runs
 * (`AuthenticationGuard`): it must answer exactly as its strategy would.
 */
describe('access cache: a recently verified credential is answered as its strategy answers it', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ ACCESS_CACHE_TTL_MS: '60000', FAILED_AUTH_RATE_LIMIT: '3/minute' });
  });
  after(() => t.close());

  it('any case of "Bearer", not a malformed header, not a key on a session route, and not past the failed-auth limit', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const key = await createApiKey(t, u.token, w.slug);
    const me = () => t.api.get('/api/users/me/');
    const v1 = () => t.api.get(`/api/v1/workspaces/${w.slug}/projects/`);
    for (let i = 0; i < 2; i++) {
      assert.equal((await me().set('Authorization', `Bearer ${u.token}`)).status, 200);
      assert.equal((await me().set('Authorization', `bEaReR ${u.token}`)).status, 200);
      assert.equal((await v1().set('X-API-Key', key)).status, 200);
    }
    // as passport-http-bearer: three parts are no bearer token, whatever the cache holds (a failure: 1)
    assertError(await me().set('Authorization', `Bearer ${u.token} extra`), 401, 'INVALID_ACCESS_TOKEN');
    // a known API key does not authenticate a session route (the key is looked up by its own strategy only)
    assertError(await me().set('X-API-Key', key), 401, 'AUTHENTICATION_REQUIRED');
    // two more refused credentials from this address reach FAILED_AUTH_RATE_LIMIT (3): then even the
    // cached ones are refused, as before they were cached
    for (const bad of ['plane_api_0', 'plane_api_1'])
      assertError(await v1().set('X-API-Key', bad), 401, 'INVALID_API_KEY');
    assertError(await v1().set('X-API-Key', key), 429, 'RATE_LIMIT_EXCEEDED');
    assertError(await me().set('Authorization', `Bearer ${u.token}`), 429, 'RATE_LIMIT_EXCEEDED');
  });
});
