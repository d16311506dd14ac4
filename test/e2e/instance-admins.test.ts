import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  adminToken,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  signUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('instance admins: sign-in, tokens of their own kind, sign-out, refresh', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ INSTANCE_ADMIN_ACCESS_TOKEN_TTL: '600' })));
  after(() => t.close());

  it('signs an instance admin in with 200, configurable short-lived tokens, stored only as digests', async () => {
    const res = await t.api
      .post('/api/instances/admins/sign-in/')
      .send({ email: t.admin!.email.toUpperCase(), password: t.admin!.password });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 600);
    assert.equal(res.body.refresh_expires_in, 8 * 3600);
    assert.equal(res.body.user.id, t.admin!.userId);
    const rows = await t.sql<{ access_digest: string }>(
      'SELECT access_digest FROM instance_admin_sessions WHERE user_id = $1',
      [t.admin!.userId],
    );
    assert.ok(rows.some((r) => r.access_digest === sha256(res.body.access_token)));
    assert.equal(
      (await t.sql('SELECT 1 FROM instance_admin_sessions WHERE access_digest = $1', [res.body.access_token])).length,
      0,
    );
  });

  it('answers a wrong password, an unknown email and a non-admin user alike: 401 ADMIN_AUTHENTICATION_FAILED', async () => {
    const user = await signUp(t);
    const wrong = await t.api
      .post('/api/instances/admins/sign-in/')
      .send({ email: t.admin!.email, password: 'wrong password' });
    const unknown = await t.api
      .post('/api/instances/admins/sign-in/')
      .send({ email: `${unique('nobody')}@example.com`, password: 'whatever1' });
    const notAdmin = await t.api
      .post('/api/instances/admins/sign-in/')
      .send({ email: user.email, password: user.password });
    for (const res of [wrong, unknown, notAdmin]) assertError(res, 401, 'ADMIN_AUTHENTICATION_FAILED');
    assert.deepEqual(wrong.body, notAdmin.body);
  });

  it('keeps the two kinds apart: a user token is 401 on /api/instances/, an admin token is 401 on the App API', async () => {
    const user = await signUp(t);
    const admin = await adminToken(t);
    const userOnAdmin = await t.api.get('/api/instances/admins/me/').auth(user.token, { type: 'bearer' });
    assertError(userOnAdmin, 401, 'INVALID_ACCESS_TOKEN');
    assert.equal(userOnAdmin.headers['www-authenticate'], 'Bearer');
    assertError(await t.api.get('/api/workspaces/').auth(admin, { type: 'bearer' }), 401, 'INVALID_ACCESS_TOKEN');
    assertError(await t.api.get('/api/instances/configurations/'), 401, 'AUTHENTICATION_REQUIRED');
    // the admin's own user session is a user token like any other: not accepted on /api/instances/
    const asUser = await t.api.post('/auth/sign-in/').send({ email: t.admin!.email, password: t.admin!.password });
    assert.equal(asUser.status, 200);
    assertError(
      await t.api.get('/api/instances/admins/').auth(asUser.body.access_token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assert.equal((await t.api.get('/api/instances/admins/').auth(admin, { type: 'bearer' })).status, 200);
  });

  it('refuses an expired admin access token', async () => {
    const token = await adminToken(t);
    await t.sql(
      `UPDATE instance_admin_sessions SET access_expires_at = now() - interval '1 second' WHERE access_digest = $1`,
      [sha256(token)],
    );
    assertError(
      await t.api.get('/api/instances/admins/me/').auth(token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
  });

  it('stops accepting the tokens of an admin whose user is deactivated', async () => {
    const user = await signUp(t);
    await t.api
      .post('/api/instances/admins/')
      .auth(await adminToken(t), { type: 'bearer' })
      .send({ email: user.email });
    const theirs = (
      await t.api.post('/api/instances/admins/sign-in/').send({ email: user.email, password: user.password })
    ).body.access_token;
    assert.equal((await t.api.get('/api/instances/admins/me/').auth(theirs, { type: 'bearer' })).status, 200);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [user.userId]);
    assertError(
      await t.api.get('/api/instances/admins/me/').auth(theirs, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(
      await t.api.post('/api/instances/admins/sign-in/').send({ email: user.email, password: user.password }),
      401,
      'ADMIN_AUTHENTICATION_FAILED',
    );
  });

  it('signs out with 204: the session’s tokens stop working, other sessions do not', async () => {
    const a = await adminToken(t);
    const b = await adminToken(t);
    const res = await t.api.post('/api/instances/admins/sign-out/').auth(a, { type: 'bearer' });
    assert.equal(res.status, 204);
    assertError(await t.api.get('/api/instances/admins/me/').auth(a, { type: 'bearer' }), 401, 'INVALID_ACCESS_TOKEN');
    assert.equal((await t.api.get('/api/instances/admins/me/').auth(b, { type: 'bearer' })).status, 200);
  });

  it('refreshes: both tokens rotate, the old ones are dead, a reused refresh token is 401 INVALID_REFRESH_TOKEN', async () => {
    const signIn = await t.api
      .post('/api/instances/admins/sign-in/')
      .send({ email: t.admin!.email, password: t.admin!.password });
    const res = await t.api
      .post('/api/instances/admins/token/refresh/')
      .send({ refresh_token: signIn.body.refresh_token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.notEqual(res.body.access_token, signIn.body.access_token);
    assert.equal(
      (await t.api.get('/api/instances/admins/me/').auth(res.body.access_token, { type: 'bearer' })).status,
      200,
    );
    assertError(
      await t.api.get('/api/instances/admins/me/').auth(signIn.body.access_token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(
      await t.api.post('/api/instances/admins/token/refresh/').send({ refresh_token: signIn.body.refresh_token }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    // a user refresh token is not an admin refresh token
    const user = await t.api.post('/auth/sign-in/').send({ email: t.admin!.email, password: t.admin!.password });
    assertError(
      await t.api.post('/api/instances/admins/token/refresh/').send({ refresh_token: user.body.refresh_token }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });
});

describe('instance admins: me, list, add, remove', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await startTestApp();
    token = await adminToken(t);
  });
  after(() => t.close());

  it('shows the signed-in admin and lists admins with user_detail', async () => {
    const me = await t.api.get('/api/instances/admins/me/').auth(token, { type: 'bearer' });
    assert.equal(me.status, 200);
    assert.deepEqual([me.body.id, me.body.email, me.body.first_name], [t.admin!.userId, t.admin!.email, 'Instance']);
    assert.equal(me.body.password_hash, undefined);
    const list = await t.api.get('/api/instances/admins/').auth(token, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].user, t.admin!.userId);
    assert.equal(list.body[0].role, 20);
    assert.equal(list.body[0].user_detail.email, t.admin!.email);
  });

  it('renames the instance with PATCH /api/instances/ (admins only; read-only fields refused)', async () => {
    const res = await t.api
      .patch('/api/instances/')
      .auth(token, { type: 'bearer' })
      .send({ instance_name: '  Renamed  ', is_telemetry_enabled: false });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual([res.body.instance_name, res.body.is_telemetry_enabled], ['Renamed', false]);
    assert.equal((await t.api.get('/api/instances/')).body.instance.instance_name, 'Renamed');
    assertError(
      await t.api.patch('/api/instances/').auth(token, { type: 'bearer' }).send({ is_setup_done: false }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await t.api.patch('/api/instances/').send({ instance_name: 'x' }), 401, 'AUTHENTICATION_REQUIRED');
    assert.equal((await t.api.get('/api/instances/')).body.instance.is_setup_done, true);
  });

  it('adds an existing user by email (201), refuses unknown emails (404) and duplicates (409)', async () => {
    const user = await signUp(t);
    assertError(
      await t.api
        .post('/api/instances/admins/')
        .auth(token, { type: 'bearer' })
        .send({ email: `${unique('ghost')}@example.com` }),
      404,
      'USER_DOES_NOT_EXIST',
    );
    assertError(
      await t.api.post('/api/instances/admins/').auth(token, { type: 'bearer' }).send({ email: user.email, role: 15 }),
      422,
      'VALIDATION_ERROR',
    );
    const res = await t.api
      .post('/api/instances/admins/')
      .auth(token, { type: 'bearer' })
      .send({ email: user.email.toUpperCase() });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.user, user.userId);
    assert.equal(res.body.user_detail.email, user.email);
    assertError(
      await t.api.post('/api/instances/admins/').auth(token, { type: 'bearer' }).send({ email: user.email }),
      409,
      'ADMIN_USER_ALREADY_EXIST',
    );

    // the new admin signs in as one
    const signIn = await t.api
      .post('/api/instances/admins/sign-in/')
      .send({ email: user.email, password: user.password });
    assert.equal(signIn.status, 200);
    const list = await t.api.get('/api/instances/admins/').auth(signIn.body.access_token, { type: 'bearer' });
    assert.deepEqual(list.body.map((a: { user: string }) => a.user).sort(), [t.admin!.userId, user.userId].sort());
  });

  it('removes an admin (204): their admin tokens die at once; the last admin cannot be removed (409)', async () => {
    const user = await signUp(t);
    const added = await t.api
      .post('/api/instances/admins/')
      .auth(token, { type: 'bearer' })
      .send({ email: user.email });
    const theirs = (
      await t.api.post('/api/instances/admins/sign-in/').send({ email: user.email, password: user.password })
    ).body.access_token;
    assert.equal((await t.api.get('/api/instances/admins/me/').auth(theirs, { type: 'bearer' })).status, 200);

    assert.equal(
      (await t.api.delete(`/api/instances/admins/${added.body.id}/`).auth(token, { type: 'bearer' })).status,
      204,
    );
    assertError(
      await t.api.get('/api/instances/admins/me/').auth(theirs, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(
      await t.api.post('/api/instances/admins/sign-in/').send({ email: user.email, password: user.password }),
      401,
      'ADMIN_AUTHENTICATION_FAILED',
    );
    assertError(
      await t.api.delete(`/api/instances/admins/${added.body.id}/`).auth(token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.delete('/api/instances/admins/not-a-uuid/').auth(token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );

    // remove every other admin, then the last one is refused
    const list = (await t.api.get('/api/instances/admins/').auth(token, { type: 'bearer' })).body as {
      id: string;
      user: string;
    }[];
    for (const a of list.filter((x) => x.user !== t.admin!.userId)) {
      assert.equal((await t.api.delete(`/api/instances/admins/${a.id}/`).auth(token, { type: 'bearer' })).status, 204);
    }
    const self = list.find((x) => x.user === t.admin!.userId)!;
    assertError(
      await t.api.delete(`/api/instances/admins/${self.id}/`).auth(token, { type: 'bearer' }),
      409,
      'LAST_INSTANCE_ADMIN',
    );
    assert.equal((await t.sql('SELECT 1 FROM instance_admins')).length, 1);
  });
});

describe('instance admins: workspaces of the instance and slug check', () => {
  let t: TestApp;
  let token: string;
  let acme: { id: string; slug: string };
  let owner: Awaited<ReturnType<typeof signUp>>;
  before(async () => {
    t = await startTestApp();
    token = await adminToken(t);
    owner = await signUp(t);
    const other = await signUp(t);
    acme = await createWorkspace(t, owner.token, unique('acme-'));
    await createWorkspace(t, other.token, unique('zeta-'));
    await addMember(t, acme.id, other.userId, 15);
    const key = await createApiKey(t, owner.token, acme.slug);
    await createProject(t, key, acme.slug);
    await createProject(t, key, acme.slug);
  });
  after(() => t.close());

  it('lists every workspace in the cursor envelope, with owner, total_members and total_projects', async () => {
    const res = await t.api.get('/api/instances/workspaces/').auth(token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.equal(res.body.total_results, 2);
    assert.equal(res.body.next_cursor, null);
    const row = res.body.results.find((w: { id: string }) => w.id === acme.id);
    assert.equal(row.slug, acme.slug);
    assert.deepEqual(row.owner, {
      id: owner.userId,
      email: owner.email,
      first_name: '',
      last_name: '',
      display_name: owner.email.split('@')[0],
    });
    assert.equal(row.total_members, 2);
    assert.equal(row.total_projects, 2);
    assert.equal((await t.api.get('/api/instances/')).body.instance.workspaces_exist, true);
  });

  it('pages with per_page and cursor, and filters with ?search=', async () => {
    const first = await t.api.get('/api/instances/workspaces/?per_page=1').auth(token, { type: 'bearer' });
    assert.equal(first.body.results.length, 1);
    assert.ok(first.body.next_cursor);
    const second = await t.api
      .get(`/api/instances/workspaces/?per_page=1&cursor=${first.body.next_cursor}`)
      .auth(token, { type: 'bearer' });
    assert.equal(second.body.results.length, 1);
    assert.notEqual(second.body.results[0].id, first.body.results[0].id);
    const found = await t.api
      .get(`/api/instances/workspaces/?search=${acme.slug.slice(0, 8).toUpperCase()}`)
      .auth(token, { type: 'bearer' });
    assert.deepEqual(
      found.body.results.map((w: { id: string }) => w.id),
      [acme.id],
    );
    const none = await t.api.get('/api/instances/workspaces/?search=%25').auth(token, { type: 'bearer' });
    assert.equal(none.body.total_results, 0);
  });

  it('is for instance admins only', async () => {
    assertError(
      await t.api.get('/api/instances/workspaces/').auth(owner.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
    assertError(
      await t.api.get('/api/instances/workspace-slug-check/?slug=x').auth(owner.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
  });

  it('checks slugs: taken in any case or restricted is false, free is true, missing is 400', async () => {
    const check = (slug: string) =>
      t.api
        .get(`/api/instances/workspace-slug-check/?slug=${encodeURIComponent(slug)}`)
        .auth(token, { type: 'bearer' });
    assert.deepEqual((await check(acme.slug.toUpperCase())).body, { status: false });
    assert.deepEqual((await check(unique('free-'))).body, { status: true });
    assert.deepEqual((await check('god-mode')).body, { status: false });
    assert.deepEqual((await check('bad slug!')).body, { status: false });
    assertError(
      await t.api.get('/api/instances/workspace-slug-check/').auth(token, { type: 'bearer' }),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });
});
