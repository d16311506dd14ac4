import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('App API: /api/workspaces/{slug}/api-tokens/', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('creates a key with 201 and shows it once, as plane_api_ + 32 hex', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const res = await t.api
      .post(`/api/workspaces/${w.slug}/api-tokens/`)
      .auth(u.token, { type: 'bearer' })
      .send({ label: 'CI', description: 'pipeline', expired_at: '2999-01-01' });
    assert.equal(res.status, 201);
    assert.match(res.body.token, /^plane_api_[0-9a-f]{32}$/);
    assert.equal(res.body.label, 'CI');
    assert.equal(res.body.description, 'pipeline');
    assert.equal(res.body.expired_at, '2999-01-01T00:00:00.000Z');
    assert.equal(res.body.workspace, w.id);
    assert.equal(res.body.user, u.userId);
    assert.equal(res.body.is_active, true);

    const list = await t.api.get(`/api/workspaces/${w.slug}/api-tokens/`).auth(u.token, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].id, res.body.id);
    assert.equal(list.body[0].token, undefined);
    assert.ok(!JSON.stringify(list.body).includes(res.body.token));
  });

  it('stores only the SHA-256 digest of the key', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const key = await createApiKey(t, u.token, w.slug);
    const rows = await t.sql<Record<string, unknown>>('SELECT * FROM api_tokens WHERE workspace_id = $1', [w.id]);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].token_digest, sha256(key));
    assert.ok(!JSON.stringify(rows).includes(key));
  });

  it('lets only workspace Admins manage keys: Members and Guests 403, non-members 404', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const member = await signUp(t);
    const guest = await signUp(t);
    const outsider = await signUp(t);
    await addMember(t, w.id, member.userId, 15);
    await addMember(t, w.id, guest.userId, 5);
    for (const who of [member, guest]) {
      assertError(
        await t.api.get(`/api/workspaces/${w.slug}/api-tokens/`).auth(who.token, { type: 'bearer' }),
        403,
        'PERMISSION_DENIED',
      );
      assertError(
        await t.api.post(`/api/workspaces/${w.slug}/api-tokens/`).auth(who.token, { type: 'bearer' }).send({}),
        403,
        'PERMISSION_DENIED',
      );
    }
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/api-tokens/`).auth(outsider.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/workspaces/no-such-ws/api-tokens/`).auth(admin.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  it('lists only the caller’s own keys', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const w = await createWorkspace(t, a.token);
    await addMember(t, w.id, b.userId, 20);
    await createApiKey(t, a.token, w.slug, { label: 'mine' });
    await createApiKey(t, b.token, w.slug, { label: 'theirs' });
    const list = await t.api.get(`/api/workspaces/${w.slug}/api-tokens/`).auth(a.token, { type: 'bearer' });
    assert.deepEqual(
      list.body.map((k: { label: string }) => k.label),
      ['mine'],
    );
  });

  it('rejects a past expiry and a malformed one with 422; ignores fields the caller may not set', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const path = `/api/workspaces/${w.slug}/api-tokens/`;
    for (const body of [{ expired_at: '2000-01-01' }, { expired_at: 'tomorrow' }]) {
      assertError(await t.api.post(path).auth(u.token, { type: 'bearer' }).send(body), 422, 'VALIDATION_ERROR');
    }
    const count = await t.sql('SELECT 1 FROM api_tokens WHERE workspace_id = $1', [w.id]);
    assert.equal(count.length, 0);
    const other = await createWorkspace(t, u.token);
    const ignored = await t.api
      .post(path)
      .auth(u.token, { type: 'bearer' })
      .send({ token: 'plane_api_x', workspace: other.id, is_service: true });
    assert.equal(ignored.status, 201, JSON.stringify(ignored.body));
    assert.notEqual(ignored.body.token, 'plane_api_x');
    assert.equal(ignored.body.workspace, w.id);
    const rows = await t.sql<{ is_service: boolean }>('SELECT is_service FROM api_tokens WHERE id = $1', [
      ignored.body.id,
    ]);
    assert.equal(rows[0].is_service, false);
  });

  it('a key works only in its own workspace: another workspace gives 403', async () => {
    const u = await signUp(t);
    const a = await createWorkspace(t, u.token);
    const b = await createWorkspace(t, u.token);
    const keyA = await createApiKey(t, u.token, a.slug);
    assert.equal((await t.api.get(`/api/v1/workspaces/${a.slug}/projects/`).set('X-API-Key', keyA)).status, 200);
    assertError(
      await t.api.get(`/api/v1/workspaces/${b.slug}/projects/`).set('X-API-Key', keyA),
      403,
      'API_KEY_WORKSPACE_MISMATCH',
    );
    assertError(
      await t.api.get(`/api/v1/workspaces/nowhere/projects/`).set('X-API-Key', keyA),
      403,
      'API_KEY_WORKSPACE_MISMATCH',
    );
  });

  it('stops a key that is expired, inactive, deleted, or whose owner left the workspace (401)', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const path = `/api/v1/workspaces/${w.slug}/projects/`;
    const cases: Array<[string, string]> = [
      ['expired', `UPDATE api_tokens SET expired_at = now() - interval '1 second' WHERE token_digest = $1`],
      ['inactive', `UPDATE api_tokens SET is_active = false WHERE token_digest = $1`],
      ['deleted', `UPDATE api_tokens SET deleted_at = now() WHERE token_digest = $1`],
    ];
    for (const [, sql] of cases) {
      const key = await createApiKey(t, u.token, w.slug);
      assert.equal((await t.api.get(path).set('X-API-Key', key)).status, 200);
      await t.sql(sql, [sha256(key)]);
      assertError(await t.api.get(path).set('X-API-Key', key), 401, 'INVALID_API_KEY');
    }
    const key = await createApiKey(t, u.token, w.slug);
    await t.sql('UPDATE workspace_members SET is_active = false WHERE workspace_id = $1', [w.id]);
    assertError(await t.api.get(path).set('X-API-Key', key), 401, 'INVALID_API_KEY');
  });

  it('records last_used when a key is used', async () => {
    const u = await signUp(t);
    const w = await createWorkspace(t, u.token);
    const key = await createApiKey(t, u.token, w.slug);
    await t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key);
    const list = await t.api.get(`/api/workspaces/${w.slug}/api-tokens/`).auth(u.token, { type: 'bearer' });
    assert.ok(list.body[0].last_used);
  });
});
