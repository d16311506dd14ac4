import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMemberWithKey,
  addProjectMember,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  signUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** `POST /api/v1/workspaces/{slug}/projects/{project_id}/members/` (Plane `plane/api/views/member.py`). */
describe('External API v1: add a project member by email', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  const url = (projectId = project.id, slug = ws.slug) => `/api/v1/workspaces/${slug}/projects/${projectId}/members/`;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'PMB' });
  });
  after(() => t.close());

  it('an unknown email: 201 UserLite; an inactive account joins the workspace and the project as a Guest', async () => {
    const email = `${unique('new')}@Example.com`;
    const res = await t.api
      .post(url())
      .set('X-API-Key', key)
      .send({ email, display_name: 'Newbie', first_name: 'New', last_name: 'Bie' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), [
      'avatar',
      'avatar_url',
      'display_name',
      'email',
      'first_name',
      'id',
      'last_name',
    ]);
    assert.equal(res.body.email, email.toLowerCase());
    assert.equal(res.body.display_name, 'Newbie');
    const [u] = await t.sql<{ is_active: boolean; password_hash: string | null }>(
      'SELECT is_active, password_hash FROM users WHERE id = $1',
      [res.body.id],
    );
    assert.deepEqual(u, { is_active: false, password_hash: null });
    const wm = await t.sql<{ role: number }>('SELECT role FROM workspace_members WHERE member_id = $1', [res.body.id]);
    assert.deepEqual(wm, [{ role: 5 }]);
    const pm = await t.sql<{ role: number }>('SELECT role FROM project_members WHERE member_id = $1', [res.body.id]);
    assert.deepEqual(pm, [{ role: 5 }]);
    // the same email again: 400
    assertError(
      await t.api.post(url()).set('X-API-Key', key).send({ email, display_name: 'x' }),
      400,
      'ALREADY_PROJECT_MEMBER',
    );
  });

  it('an existing user outside the workspace joins with the given role; project list shows them', async () => {
    const other = await signUp(t);
    const res = await t.api
      .post(url())
      .set('X-API-Key', key)
      .send({ email: other.email, display_name: 'ignored', role: 15 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.id, other.userId);
    assert.notEqual(res.body.display_name, 'ignored');
    const list = await t.api.get(url()).set('X-API-Key', key);
    assert.ok(list.body.some((m: { id: string; role: number }) => m.id === other.userId && m.role === 15));
  });

  it('an existing workspace Admin can only be a project Admin (422)', async () => {
    const admin = await signUp(t);
    await addMemberWithKey(t, ws, admin, 20);
    assertError(
      await t.api.post(url()).set('X-API-Key', key).send({ email: admin.email, display_name: 'a', role: 15 }),
      422,
      'VALIDATION_ERROR',
    );
    const ok = await t.api.post(url()).set('X-API-Key', key).send({ email: admin.email, display_name: 'a', role: 20 });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  });

  it('validation: email and display_name required, a valid email, role 5/15/20', async () => {
    for (const body of [
      {},
      { email: 'x@example.com' },
      { display_name: 'x' },
      { email: 'not-an-email', display_name: 'x' },
      { email: 'x@example.com', display_name: 'x', role: 10 },
      { email: 'x@example.com', display_name: 'x', role: null },
      { email: 'x@example.com', display_name: 7 },
    ]) {
      assertError(await t.api.post(url()).set('X-API-Key', key).send(body), 422, 'VALIDATION_ERROR');
    }
  });

  it('foreign ids: a project of another workspace is 404; an unknown project is 404', async () => {
    const stranger = await signUp(t);
    const ws2 = await createWorkspace(t, stranger.token);
    const key2 = await createApiKey(t, stranger.token, ws2.slug);
    const p2 = await createProject(t, key2, ws2.slug, { identifier: 'FRN' });
    const body = { email: `${unique('f')}@example.com`, display_name: 'f' };
    assertError(await t.api.post(url(p2.id)).set('X-API-Key', key).send(body), 404, 'PROJECT_NOT_FOUND');
    assertError(
      await t.api.post(url('00000000-0000-4000-8000-000000000000')).set('X-API-Key', key).send(body),
      404,
      'PROJECT_NOT_FOUND',
    );
    assert.equal(
      (await t.api.post(url(p2.id, ws2.slug)).set('X-API-Key', key).send(body)).status,
      403,
      'a key of another workspace',
    );
  });

  it('roles: a Member gives at most Member; a Guest and a non-member of the project are refused; no key is 401', async () => {
    const member = await signUp(t);
    const memberKey = await addMemberWithKey(t, ws, member, 15);
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
    const mk = (role: number) => ({ email: `${unique('r')}@example.com`, display_name: 'r', role });
    assertError(await t.api.post(url()).set('X-API-Key', memberKey).send(mk(20)), 403, 'PERMISSION_DENIED');
    assert.equal((await t.api.post(url()).set('X-API-Key', memberKey).send(mk(15))).status, 201);

    const guest = await signUp(t);
    const guestKey = await addMemberWithKey(t, ws, guest, 5);
    await addProjectMember(t, ws.id, project.id, guest.userId, 5);
    assertError(await t.api.post(url()).set('X-API-Key', guestKey).send(mk(5)), 403, 'PERMISSION_DENIED');

    const outsider = await signUp(t);
    const outsiderKey = await addMemberWithKey(t, ws, outsider, 15);
    const res = await t.api.post(url()).set('X-API-Key', outsiderKey).send(mk(5));
    assert.ok([403, 404].includes(res.status), JSON.stringify(res.body));

    assertError(await t.api.post(url()).send(mk(5)), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('the External API rate limit counts the route', async () => {
    const res = await t.api
      .post(url())
      .set('X-API-Key', key)
      .send({ email: `${unique('rl')}@example.com`, display_name: 'rl' });
    assert.equal(res.status, 201);
    assert.ok(res.headers['x-ratelimit-limit'], 'X-RateLimit-Limit is sent');
  });
});
