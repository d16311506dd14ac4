import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  assertError,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('App API: /api/users/me/ and one workspace', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('GET /users/me/ shows Plane’s UserMe fields and no secret', async () => {
    const u = await signUp(t);
    const res = await t.api.get('/api/users/me/').auth(u.token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.equal(res.body.id, u.userId);
    assert.equal(res.body.email, u.email);
    assert.match(res.body.username, /^[0-9a-f-]{36}$/);
    for (const field of [
      'avatar',
      'cover_image',
      'avatar_url',
      'cover_image_url',
      'date_joined',
      'display_name',
      'first_name',
      'last_name',
      'is_active',
      'is_bot',
      'is_email_verified',
      'user_timezone',
      'is_password_autoset',
      'last_login_medium',
    ]) {
      assert.ok(field in res.body, field);
    }
    assert.equal(res.body.user_timezone, 'UTC');
    assert.equal(res.body.last_login_medium, 'email');
    assert.ok(!JSON.stringify(res.body).includes('argon2'));
    assertError(await t.api.get('/api/users/me/'), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('PATCH /users/me/ updates profile fields and rejects the rest', async () => {
    const u = await signUp(t);
    const other = await signUp(t);
    const res = await t.api.patch('/api/users/me/').auth(u.token, { type: 'bearer' }).send({
      first_name: 'Ada',
      last_name: 'Lovelace',
      display_name: 'ada',
      user_timezone: 'Europe/Paris',
      avatar: 'https://x.test/a.png',
      cover_image: 'https://x.test/c.png',
      username: 'ada_l',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.first_name, 'Ada');
    assert.equal(res.body.user_timezone, 'Europe/Paris');
    assert.equal(res.body.cover_image_url, 'https://x.test/c.png');
    assert.equal(res.body.username, 'ada_l');
    const again = await t.api.get('/api/users/me/').auth(u.token, { type: 'bearer' });
    assert.equal(again.body.display_name, 'ada');
    for (const body of [{ user_timezone: 'Mars/Olympus' }, { display_name: '' }]) {
      assertError(
        await t.api.patch('/api/users/me/').auth(u.token, { type: 'bearer' }).send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
    // fields the user may not set here are ignored, as Plane's serializer does, and change nothing
    for (const body of [{ email: 'new@example.com' }, { password: 'x' }, { is_active: false }]) {
      const ignored = await t.api.patch('/api/users/me/').auth(u.token, { type: 'bearer' }).send(body);
      assert.equal(ignored.status, 200, JSON.stringify(ignored.body));
    }
    const unchanged = await t.api.get('/api/users/me/').auth(u.token, { type: 'bearer' });
    assert.equal(unchanged.body.email, u.email);
    assert.equal(unchanged.body.is_active, true);
    assert.equal((await t.api.post('/auth/sign-in/').send({ email: u.email, password: u.password })).status, 200);
    assertError(
      await t.api.patch('/api/users/me/').auth(other.token, { type: 'bearer' }).send({ username: 'ada_l' }),
      409,
      'CONFLICT',
    );
  });

  it('GET /users/me/workspaces/ lists the caller’s workspaces with role and total_members', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const w1 = await createWorkspace(t, a.token);
    const w2 = await createWorkspace(t, b.token);
    await addMember(t, w2.id, a.userId, 5);
    await createWorkspace(t, b.token);
    const res = await t.api.get('/api/users/me/workspaces/').auth(a.token, { type: 'bearer' });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.map((w: { slug: string; role: number; total_members: number }) => [w.slug, w.role, w.total_members]),
      [
        [w1.slug, 20, 1],
        [w2.slug, 5, 2],
      ],
    );
  });

  it('retrieves and updates a workspace (Admins), with slug rules', async () => {
    const a = await signUp(t);
    const m = await signUp(t);
    const w = await createWorkspace(t, a.token);
    await addMember(t, w.id, m.userId, 15);
    const got = await t.api.get(`/api/workspaces/${w.slug}/`).auth(m.token, { type: 'bearer' });
    assert.equal(got.status, 200);
    assert.equal(got.body.id, w.id);
    assert.equal(got.body.role, 15);
    assert.equal(got.body.total_members, 2);
    assertError(
      await t.api.patch(`/api/workspaces/${w.slug}/`).auth(m.token, { type: 'bearer' }).send({ name: 'x' }),
      403,
      'PERMISSION_DENIED',
    );

    const taken = await createWorkspace(t, a.token);
    assertError(
      await t.api.patch(`/api/workspaces/${w.slug}/`).auth(a.token, { type: 'bearer' }).send({ slug: taken.slug }),
      409,
      'WORKSPACE_SLUG_TAKEN',
    );
    for (const body of [{ slug: 'settings' }, { slug: 'bad slug' }, { timezone: 'Nowhere/City' }, { name: '' }]) {
      assertError(
        await t.api.patch(`/api/workspaces/${w.slug}/`).auth(a.token, { type: 'bearer' }).send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
    const newSlug = unique('renamed-');
    const res = await t.api
      .patch(`/api/workspaces/${w.slug}/`)
      .auth(a.token, { type: 'bearer' })
      .send({ name: 'Renamed', slug: newSlug, timezone: 'Asia/Tokyo', organization_size: '2-10', owner: m.userId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // the owner is not writable: ignored, as Plane's serializer does
    const [row] = await t.sql<{ owner_id: string }>('SELECT owner_id FROM workspaces WHERE id = $1', [w.id]);
    assert.equal(row.owner_id, a.userId);
    assert.equal(res.body.name, 'Renamed');
    assert.equal(res.body.slug, newSlug);
    assert.equal(res.body.timezone, 'Asia/Tokyo');
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/`).auth(a.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    assert.equal((await t.api.get(`/api/workspaces/${newSlug}/`).auth(a.token, { type: 'bearer' })).status, 200);
  });

  it('deletes a workspace softly: gone for members, keys stop (401), the slug stays reserved', async () => {
    const a = await signUp(t);
    const w = await createWorkspace(t, a.token);
    const key = await createApiKey(t, a.token, w.slug);
    await createAppProject(t, a.token, w.slug);
    assert.equal((await t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key)).status, 200);
    const res = await t.api.delete(`/api/workspaces/${w.slug}/`).auth(a.token, { type: 'bearer' });
    assert.equal(res.status, 204);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/`).auth(a.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key),
      401,
      'INVALID_API_KEY',
    );
    const mine = await t.api.get('/api/users/me/workspaces/').auth(a.token, { type: 'bearer' });
    assert.deepEqual(mine.body, []);
    const rows = await t.sql<{ deleted_at: unknown }>('SELECT deleted_at FROM workspaces WHERE id = $1', [w.id]);
    assert.ok(rows[0].deleted_at, 'the row is kept');
    const projects = await t.sql('SELECT 1 FROM projects WHERE workspace_id = $1 AND deleted_at IS NULL', [w.id]);
    assert.equal(projects.length, 0);
    assertError(
      await t.api.post('/api/workspaces/').auth(a.token, { type: 'bearer' }).send({ name: 'Again', slug: w.slug }),
      409,
      'WORKSPACE_SLUG_TAKEN',
    );
    const check = await t.api
      .get('/api/workspace-slug-check/')
      .query({ slug: w.slug })
      .auth(a.token, { type: 'bearer' });
    assert.deepEqual(check.body, { status: false });
  });

  it('GET /workspace-slug-check/ tells whether a slug is free', async () => {
    const a = await signUp(t);
    const w = await createWorkspace(t, a.token);
    const check = (slug?: string) =>
      t.api
        .get('/api/workspace-slug-check/')
        .query(slug === undefined ? {} : { slug })
        .auth(a.token, { type: 'bearer' });
    assert.deepEqual((await check(unique('free-'))).body, { status: true });
    assert.deepEqual((await check(w.slug)).body, { status: false });
    assert.deepEqual((await check('god-mode')).body, { status: false });
    assert.deepEqual((await check('has space')).body, { status: false });
    assertError(await check(), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await t.api.get('/api/workspace-slug-check/').query({ slug: 'x' }), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('a deactivated user’s access token is refused with 401', async () => {
    const u = await signUp(t);
    await createWorkspace(t, u.token);
    assert.equal((await t.api.get('/api/users/me/').auth(u.token, { type: 'bearer' })).status, 200);
    await t.sql('UPDATE users SET is_active = false WHERE id = $1', [u.userId]);
    assertError(await t.api.get('/api/users/me/').auth(u.token, { type: 'bearer' }), 401, 'INVALID_ACCESS_TOKEN');
    assertError(
      await t.api.get('/api/users/me/workspaces/').auth(u.token, { type: 'bearer' }),
      401,
      'INVALID_ACCESS_TOKEN',
    );
  });
});
