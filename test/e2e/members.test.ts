import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createApiKey,
  createAppProject,
  createWorkspace,
  membershipId,
  signUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('App API: workspace members', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  async function team() {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const member = await signUp(t);
    const guest = await signUp(t);
    await addMember(t, w.id, member.userId, 15);
    await addMember(t, w.id, guest.userId, 5);
    // the list is oldest membership first: two inserts in one clock tick would tie (then the id decides)
    await t.sql("UPDATE workspace_members SET created_at = created_at + interval '1 second' WHERE member_id = $1", [
      guest.userId,
    ]);
    return { admin, member, guest, w };
  }

  it('lists active members; Guests do not see other members’ emails', async () => {
    const { admin, member, guest, w } = await team();
    const asAdmin = await t.api.get(`/api/workspaces/${w.slug}/members/`).auth(admin.token, { type: 'bearer' });
    assert.equal(asAdmin.status, 200);
    assert.deepEqual(
      asAdmin.body.map((r: { member: { id: string }; role: number }) => [r.member.id, r.role]),
      [
        [admin.userId, 20],
        [member.userId, 15],
        [guest.userId, 5],
      ],
    );
    assert.equal(asAdmin.body[1].member.email, member.email);
    assert.equal(asAdmin.body[0].workspace.slug, w.slug);
    const asGuest = await t.api.get(`/api/workspaces/${w.slug}/members/`).auth(guest.token, { type: 'bearer' });
    assert.equal(asGuest.status, 200);
    const others = asGuest.body.filter((r: { member: { id: string } }) => r.member.id !== guest.userId);
    assert.equal(others.length, 2);
    assert.ok(others.every((r: { member: Record<string, unknown> }) => !('email' in r.member)));
    assert.equal(
      asGuest.body.find((r: { member: { id: string } }) => r.member.id === guest.userId).member.email,
      guest.email,
    );
    const search = await t.api
      .get(`/api/workspaces/${w.slug}/members/`)
      .query({ search: member.email.slice(0, 12) })
      .auth(admin.token, { type: 'bearer' });
    assert.deepEqual(
      search.body.map((r: { member: { id: string } }) => r.member.id),
      [member.userId],
    );
    const one = await t.api
      .get(`/api/workspaces/${w.slug}/members/${await membershipId(t, w.id, member.userId)}/`)
      .auth(guest.token, { type: 'bearer' });
    assert.equal(one.status, 200);
    assert.equal(one.body.member.id, member.userId);
  });

  it('Admins change roles, never their own (403); demoting lowers project roles', async () => {
    const { admin, member, guest, w } = await team();
    const p = await createAppProject(t, admin.token, w.slug);
    await addProjectMember(t, w.id, p.id, member.userId, 15);
    const memberRow = await membershipId(t, w.id, member.userId);
    const path = `/api/workspaces/${w.slug}/members/${memberRow}/`;
    assertError(
      await t.api.patch(path).auth(member.token, { type: 'bearer' }).send({ role: 5 }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api.patch(path).auth(guest.token, { type: 'bearer' }).send({ role: 5 }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api
        .patch(`/api/workspaces/${w.slug}/members/${await membershipId(t, w.id, admin.userId)}/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ role: 15 }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api.patch(path).auth(admin.token, { type: 'bearer' }).send({ role: 12 }),
      422,
      'VALIDATION_ERROR',
    );
    const res = await t.api.patch(path).auth(admin.token, { type: 'bearer' }).send({ role: 5 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.role, 5);
    const pm = await t.sql<{ role: number }>(
      'SELECT role FROM project_members WHERE project_id = $1 AND member_id = $2',
      [p.id, member.userId],
    );
    assert.equal(Number(pm[0].role), 5);
    const up = await t.api.patch(path).auth(admin.token, { type: 'bearer' }).send({ role: 20 });
    assert.equal(up.body.role, 20);
  });

  it('removing a member deactivates their memberships: their key gives 401, their session 404, the rows stay', async () => {
    const { admin, member, w } = await team();
    await t.sql('UPDATE workspace_members SET role = 20 WHERE workspace_id = $1 AND member_id = $2', [
      w.id,
      member.userId,
    ]);
    const key = await createApiKey(t, member.token, w.slug);
    const p = await createAppProject(t, admin.token, w.slug);
    await addProjectMember(t, w.id, p.id, member.userId, 20);
    assert.equal((await t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key)).status, 200);
    const row = await membershipId(t, w.id, member.userId);
    assertError(
      await t.api
        .delete(`/api/workspaces/${w.slug}/members/${await membershipId(t, w.id, admin.userId)}/`)
        .auth(admin.token, { type: 'bearer' }),
      400,
      'CANNOT_REMOVE_SELF',
    );
    const res = await t.api.delete(`/api/workspaces/${w.slug}/members/${row}/`).auth(admin.token, { type: 'bearer' });
    assert.equal(res.status, 204);
    assertError(
      await t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key),
      401,
      'INVALID_API_KEY',
    );
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/`).auth(member.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    const rows = await t.sql<{ is_active: boolean }>('SELECT is_active FROM workspace_members WHERE id = $1', [row]);
    assert.equal(rows[0].is_active, false);
    const pm = await t.sql<{ is_active: boolean }>(
      'SELECT is_active FROM project_members WHERE project_id = $1 AND member_id = $2',
      [p.id, member.userId],
    );
    assert.equal(pm[0].is_active, false);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/members/${row}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    const list = await t.api.get(`/api/workspaces/${w.slug}/members/`).auth(admin.token, { type: 'bearer' });
    assert.ok(!list.body.some((r: { member: { id: string } }) => r.member.id === member.userId));

    // invited again, they accept and the same membership row comes back with the new role
    const invited = await t.api
      .post(`/api/workspaces/${w.slug}/invitations/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ emails: [{ email: member.email, role: 5 }] });
    assert.equal(invited.status, 200);
    const mine = await t.api.get('/api/users/me/workspaces/invitations/').auth(member.token, { type: 'bearer' });
    const ids = mine.body.map((i: { id: string }) => i.id);
    assert.equal(ids.length, 1);
    assert.equal(
      (
        await t.api
          .post('/api/users/me/workspaces/invitations/')
          .auth(member.token, { type: 'bearer' })
          .send({ invitations: ids })
      ).status,
      204,
    );
    const back = await t.api.get(`/api/workspaces/${w.slug}/members/${row}/`).auth(admin.token, { type: 'bearer' });
    assert.equal(back.status, 200);
    assert.equal(back.body.role, 5);
    // keys of the removed membership do not come back with it
    assertError(
      await t.api.get(`/api/v1/workspaces/${w.slug}/projects/`).set('X-API-Key', key),
      401,
      'INVALID_API_KEY',
    );
  });

  it('Members and Guests cannot remove; ids of another workspace are 404', async () => {
    const { admin, member, guest, w } = await team();
    const guestRow = await membershipId(t, w.id, guest.userId);
    assertError(
      await t.api.delete(`/api/workspaces/${w.slug}/members/${guestRow}/`).auth(member.token, { type: 'bearer' }),
      403,
      'PERMISSION_DENIED',
    );
    const other = await createWorkspace(t, admin.token);
    const foreignRow = await membershipId(t, other.id, admin.userId);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/members/${foreignRow}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api
        .patch(`/api/workspaces/${w.slug}/members/${foreignRow}/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ role: 5 }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.delete(`/api/workspaces/${w.slug}/members/${foreignRow}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/members/not-a-uuid/`).auth(admin.token, { type: 'bearer' }),
      404,
      'NOT_FOUND',
    );
  });

  it('members leave; the last Admin cannot (400) until another Admin exists', async () => {
    const { admin, member, guest, w } = await team();
    const leave = (token: string) =>
      t.api.post(`/api/workspaces/${w.slug}/members/leave/`).auth(token, { type: 'bearer' });
    assert.equal((await leave(guest.token)).status, 204);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/`).auth(guest.token, { type: 'bearer' }),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    assertError(await leave(admin.token), 400, 'LAST_WORKSPACE_ADMIN');
    const promoted = await t.api
      .patch(`/api/workspaces/${w.slug}/members/${await membershipId(t, w.id, member.userId)}/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ role: 20 });
    assert.equal(promoted.status, 200);
    assert.equal((await leave(admin.token)).status, 204);
    const rest = await t.api.get(`/api/workspaces/${w.slug}/members/`).auth(member.token, { type: 'bearer' });
    assert.deepEqual(
      rest.body.map((r: { member: { id: string } }) => r.member.id),
      [member.userId],
    );
  });
});
