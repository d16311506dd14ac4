import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('App API: /api/workspaces/{slug}/api-tokens/{id}/', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  async function setup() {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const created = await t.api
      .post(`/api/workspaces/${w.slug}/api-tokens/`)
      .auth(u.token, { type: 'bearer' })
      .send({ label: 'ci' });
    assert.equal(created.status, 201);
    return {
      u,
      w,
      id: created.body.id as string,
      key: created.body.token as string,
      path: `/api/workspaces/${w.slug}/api-tokens/${created.body.id}/`,
    };
  }
  const v1 = (slug: string, key: string) => t.api.get(`/api/v1/workspaces/${slug}/projects/`).set('X-API-Key', key);

  it('retrieves a key without its secret', async () => {
    const { u, id, key, path } = await setup();
    const res = await t.api.get(path).auth(u.token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, id);
    assert.equal(res.body.label, 'ci');
    assert.equal(res.body.token, undefined);
    assert.ok(!JSON.stringify(res.body).includes(key));
  });

  it('updates label and description without showing the secret', async () => {
    const { u, key, path } = await setup();
    const res = await t.api
      .patch(path)
      .auth(u.token, { type: 'bearer' })
      .send({ label: 'deploy', description: 'the pipeline' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.label, 'deploy');
    assert.equal(res.body.description, 'the pipeline');
    assert.equal(res.body.token, undefined);
    assert.ok(!JSON.stringify(res.body).includes(key));
  });

  it('is_active false stops the key at once (401); true brings it back', async () => {
    const { u, w, key, path } = await setup();
    assert.equal((await v1(w.slug, key)).status, 200);
    assert.equal((await t.api.patch(path).auth(u.token, { type: 'bearer' }).send({ is_active: false })).status, 200);
    assertError(await v1(w.slug, key), 401, 'INVALID_API_KEY');
    assert.equal((await t.api.patch(path).auth(u.token, { type: 'bearer' }).send({ is_active: true })).status, 200);
    assert.equal((await v1(w.slug, key)).status, 200);
  });

  it('expired_at is honoured at once: a key that has expired gives 401; a past expiry cannot be set', async () => {
    const { u, w, key, path } = await setup();
    assertError(
      await t.api.patch(path).auth(u.token, { type: 'bearer' }).send({ expired_at: '2001-01-01' }),
      422,
      'VALIDATION_ERROR',
    );
    const soon = new Date(Date.now() + 1500).toISOString();
    const res = await t.api.patch(path).auth(u.token, { type: 'bearer' }).send({ expired_at: soon });
    assert.equal(res.status, 200);
    assert.equal(res.body.expired_at, soon);
    assert.equal((await v1(w.slug, key)).status, 200);
    await new Promise((r) => setTimeout(r, 1600));
    assertError(await v1(w.slug, key), 401, 'INVALID_API_KEY');
    const never = await t.api.patch(path).auth(u.token, { type: 'bearer' }).send({ expired_at: null });
    assert.equal(never.body.expired_at, null);
    assert.equal((await v1(w.slug, key)).status, 200);
  });

  it('ignores fields the caller may not set (as Plane) and changes nothing', async () => {
    const { u, w, path } = await setup();
    const other = await signUp(t);
    for (const body of [
      { user: other.userId },
      { owner: other.userId },
      { workspace: w.id },
      { token_digest: 'x' },
      { token: 'plane_api_x' },
      { rate_limit: '1000/minute' },
      { is_service: true },
      { last_used: new Date().toISOString() },
      { user_type: 1 },
    ]) {
      const res = await t.api.patch(path).auth(u.token, { type: 'bearer' }).send(body);
      assert.equal(res.status, 200, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
    }
    const rows = await t.sql<{ user_id: string; workspace_id: string; is_service: boolean }>(
      'SELECT user_id, workspace_id, is_service FROM api_tokens WHERE id = $1',
      [path.split('/').at(-2)],
    );
    assert.deepEqual(rows[0], { user_id: u.userId, workspace_id: w.id, is_service: false });
  });

  it('deletes a key: 204, 401 afterwards, gone from the list', async () => {
    const { u, w, key, path } = await setup();
    assert.equal((await t.api.delete(path).auth(u.token, { type: 'bearer' })).status, 204);
    assertError(await v1(w.slug, key), 401, 'INVALID_API_KEY');
    assertError(await t.api.get(path).auth(u.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    const list = await t.api.get(`/api/workspaces/${w.slug}/api-tokens/`).auth(u.token, { type: 'bearer' });
    assert.deepEqual(list.body, []);
  });

  it('another Admin’s key, or a key of another workspace, is a 404', async () => {
    const { u, w, id, path } = await setup();
    const admin2 = await signUp(t);
    await addMember(t, w.id, admin2.userId, 20);
    assertError(await t.api.get(path).auth(admin2.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    assertError(
      await t.api.patch(path).auth(admin2.token, { type: 'bearer' }).send({ is_active: false }),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(path).auth(admin2.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    const w2 = await createWorkspace(t, u.token);
    assertError(
      await t.api.get(`/api/workspaces/${w2.slug}/api-tokens/${id}/`).auth(u.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.delete(`/api/workspaces/${w2.slug}/api-tokens/${id}/`).auth(u.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
  });

  it('keeps last_used without a write on every request (at most once a minute)', async () => {
    const { u, w, key, path } = await setup();
    await v1(w.slug, key);
    const first = (await t.api.get(path).auth(u.token, { type: 'bearer' })).body.last_used;
    assert.ok(first);
    await new Promise((r) => setTimeout(r, 20));
    await v1(w.slug, key);
    const second = (await t.api.get(path).auth(u.token, { type: 'bearer' })).body.last_used;
    assert.equal(second, first);
    await t.sql(`UPDATE api_tokens SET last_used = now() - interval '2 minutes' WHERE id = $1`, [
      path.split('/').at(-2),
    ]);
    const stale = (await t.api.get(path).auth(u.token, { type: 'bearer' })).body.last_used;
    await v1(w.slug, key);
    const third = (await t.api.get(path).auth(u.token, { type: 'bearer' })).body.last_used;
    assert.ok(Date.parse(third) > Date.parse(stale));
  });
});
