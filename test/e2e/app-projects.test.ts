import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('App API: projects and project members', () => {
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
    return { admin, member, guest, w };
  }
  const ids = (res: { body: Array<{ id: string }> }) => res.body.map((p) => p.id).sort();

  it('lists with Plane’s visibility: Admins all, Members theirs and public ones, Guests theirs', async () => {
    const { admin, member, guest, w } = await team();
    const pub = await createAppProject(t, admin.token, w.slug, { network: 2 });
    const secret = await createAppProject(t, admin.token, w.slug, { network: 0 });
    const mine = await createAppProject(t, member.token, w.slug, { network: 0 });
    const guestPub = await createAppProject(t, admin.token, w.slug, { network: 2 });
    await addProjectMember(t, w.id, guestPub.id, guest.userId, 5);
    // the workspace Admin is not a member of `mine` and still sees it
    const asAdmin = await t.api.get(`/api/workspaces/${w.slug}/projects/`).auth(admin.token, { type: 'bearer' });
    assert.equal(asAdmin.status, 200);
    assert.deepEqual(ids(asAdmin), [pub.id, secret.id, mine.id, guestPub.id].sort());
    const asMember = await t.api.get(`/api/workspaces/${w.slug}/projects/`).auth(member.token, { type: 'bearer' });
    assert.deepEqual(ids(asMember), [pub.id, mine.id, guestPub.id].sort());
    const asGuest = await t.api.get(`/api/workspaces/${w.slug}/projects/`).auth(guest.token, { type: 'bearer' });
    assert.deepEqual(ids(asGuest), [guestPub.id]);
    assert.equal(asGuest.body[0].member_role, 5);
  });

  it('creates (Admins and Members), retrieves (project members) and updates (project Admins)', async () => {
    const { admin, member, guest, w } = await team();
    assertError(
      await t.api
        .post(`/api/workspaces/${w.slug}/projects/`)
        .auth(guest.token, { type: 'bearer' })
        .send({ name: 'G', identifier: 'GG' }),
      403,
      'PERMISSION_DENIED',
    );
    const p = await createAppProject(t, member.token, w.slug, { identifier: ' web ', name: 'Web' });
    assert.equal(p.identifier, 'WEB');
    const states = await t.sql('SELECT name FROM states WHERE project_id = $1', [p.id]);
    assert.equal(states.length, 5);
    const got = await t.api.get(`/api/workspaces/${w.slug}/projects/${p.id}/`).auth(member.token, { type: 'bearer' });
    assert.equal(got.status, 200);
    assert.equal(got.body.member_role, 20);
    // a public project the admin is not a member of: visible in the list, but retrieving needs a membership
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/projects/${p.id}/`).auth(admin.token, { type: 'bearer' }),
      403,
      'PERMISSION_DENIED',
    );
    await addProjectMember(t, w.id, p.id, guest.userId, 5);
    assertError(
      await t.api
        .patch(`/api/workspaces/${w.slug}/projects/${p.id}/`)
        .auth(guest.token, { type: 'bearer' })
        .send({ name: 'X' }),
      403,
      'PERMISSION_DENIED',
    );

    const res = await t.api
      .patch(`/api/workspaces/${w.slug}/projects/${p.id}/`)
      .auth(member.token, { type: 'bearer' })
      .send({
        name: 'Website',
        description: 'The site',
        network: 0,
        identifier: 'site',
        cycle_view: false,
        timezone: 'Europe/Berlin',
      });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Website');
    assert.equal(res.body.identifier, 'SITE');
    assert.equal(res.body.network, 0);
    assert.equal(res.body.cycle_view, false);
    const other = await createAppProject(t, member.token, w.slug);
    assertError(
      await t.api
        .patch(`/api/workspaces/${w.slug}/projects/${p.id}/`)
        .auth(member.token, { type: 'bearer' })
        .send({ identifier: other.identifier }),
      409,
      'PROJECT_IDENTIFIER_TAKEN',
    );
    assertError(
      await t.api
        .patch(`/api/workspaces/${w.slug}/projects/${p.id}/`)
        .auth(member.token, { type: 'bearer' })
        .send({ name: other.name }),
      409,
      'PROJECT_NAME_TAKEN',
    );
    // the workspace is read-only: ignored, as Plane's serializer does
    const moved = await t.api
      .patch(`/api/workspaces/${w.slug}/projects/${p.id}/`)
      .auth(member.token, { type: 'bearer' })
      .send({ workspace: randomUUID() });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.workspace, w.id);
    for (const body of [{ network: 1 }, { project_lead: randomUUID() }, { timezone: 'Nope/Nope' }, { name: '' }]) {
      assertError(
        await t.api
          .patch(`/api/workspaces/${w.slug}/projects/${p.id}/`)
          .auth(member.token, { type: 'bearer' })
          .send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
  });

  it('archives and unarchives; archived projects stay listed, cannot be retrieved or updated', async () => {
    const { admin, w } = await team();
    const p = await createAppProject(t, admin.token, w.slug);
    const path = `/api/workspaces/${w.slug}/projects/${p.id}/`;
    const archived = await t.api.post(`${path}archive/`).auth(admin.token, { type: 'bearer' });
    assert.equal(archived.status, 200);
    assert.ok(Date.parse(archived.body.archived_at) > 0);
    assertError(
      await t.api.patch(path).auth(admin.token, { type: 'bearer' }).send({ name: 'x' }),
      400,
      'PROJECT_ARCHIVED',
    );
    assertError(await t.api.get(path).auth(admin.token, { type: 'bearer' }), 404, 'PROJECT_NOT_FOUND');
    const list = await t.api.get(`/api/workspaces/${w.slug}/projects/`).auth(admin.token, { type: 'bearer' });
    assert.equal(list.body.find((x: { id: string }) => x.id === p.id).archived_at, archived.body.archived_at);
    assert.equal((await t.api.delete(`${path}archive/`).auth(admin.token, { type: 'bearer' })).status, 204);
    const back = await t.api.get(path).auth(admin.token, { type: 'bearer' });
    assert.equal(back.status, 200);
    assert.equal(back.body.archived_at, null);
  });

  it('deletes softly (project Admins, or workspace Admins even of a secret project they are not in)', async () => {
    const { admin, member, w } = await team();
    const p = await createAppProject(t, member.token, w.slug, { network: 0 });
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/projects/${p.id}/`).auth(admin.token, { type: 'bearer' }),
      404,
      'PROJECT_NOT_FOUND',
    );
    const res = await t.api.delete(`/api/workspaces/${w.slug}/projects/${p.id}/`).auth(admin.token, { type: 'bearer' });
    assert.equal(res.status, 204);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/projects/${p.id}/`).auth(member.token, { type: 'bearer' }),
      404,
      'PROJECT_NOT_FOUND',
    );
    const rows = await t.sql<{ deleted_at: unknown }>('SELECT deleted_at FROM projects WHERE id = $1', [p.id]);
    assert.ok(rows[0].deleted_at);
    // the identifier is free again
    await createAppProject(t, member.token, w.slug, { identifier: p.identifier, name: p.name });
    // a project Member cannot delete
    const q = await createAppProject(t, admin.token, w.slug);
    await addProjectMember(t, w.id, q.id, member.userId, 15);
    assertError(
      await t.api.delete(`/api/workspaces/${w.slug}/projects/${q.id}/`).auth(member.token, { type: 'bearer' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('checks identifiers', async () => {
    const { admin, guest, w } = await team();
    const p = await createAppProject(t, admin.token, w.slug, { identifier: unique('I').slice(0, 6).toUpperCase() });
    const taken = await t.api
      .get(`/api/workspaces/${w.slug}/project-identifiers/`)
      .query({ name: ` ${p.identifier.toLowerCase()} ` })
      .auth(admin.token, { type: 'bearer' });
    assert.equal(taken.status, 200);
    assert.deepEqual(taken.body, { exists: 1, identifiers: [{ id: p.id, name: p.identifier, project: p.id }] });
    const free = await t.api
      .get(`/api/workspaces/${w.slug}/project-identifiers/`)
      .query({ name: 'FREE1' })
      .auth(admin.token, { type: 'bearer' });
    assert.deepEqual(free.body, { exists: 0, identifiers: [] });
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/project-identifiers/`).auth(admin.token, { type: 'bearer' }),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    assertError(
      await t.api
        .get(`/api/workspaces/${w.slug}/project-identifiers/`)
        .query({ name: 'X' })
        .auth(guest.token, { type: 'bearer' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('joins public projects with the workspace role; secret ones are 404; Guests 403', async () => {
    const { admin, member, guest, w } = await team();
    const pub = await createAppProject(t, admin.token, w.slug, { network: 2 });
    const secret = await createAppProject(t, admin.token, w.slug, { network: 0 });
    const path = `/api/users/me/workspaces/${w.slug}/projects/invitations/`;
    assertError(
      await t.api
        .post(path)
        .auth(member.token, { type: 'bearer' })
        .send({ project_ids: [pub.id, secret.id] }),
      404,
      'PROJECT_NOT_FOUND',
    );
    assertError(
      await t.api
        .post(path)
        .auth(guest.token, { type: 'bearer' })
        .send({ project_ids: [pub.id] }),
      403,
      'PERMISSION_DENIED',
    );
    const res = await t.api
      .post(path)
      .auth(member.token, { type: 'bearer' })
      .send({ project_ids: [pub.id] });
    assert.equal(res.status, 201);
    assert.deepEqual(res.body, { message: 'Projects joined successfully' });
    const got = await t.api.get(`/api/workspaces/${w.slug}/projects/${pub.id}/`).auth(member.token, { type: 'bearer' });
    assert.equal(got.body.member_role, 15);
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/projects/${secret.id}/`).auth(member.token, { type: 'bearer' }),
      404,
      'PROJECT_NOT_FOUND',
    );
  });

  it('manages project members with Plane’s role rules', async () => {
    const { admin, member, guest, w } = await team();
    const other = await signUp(t);
    await addMember(t, w.id, other.userId, 15);
    const outsider = await signUp(t);
    const p = await createAppProject(t, member.token, w.slug);
    const base = `/api/workspaces/${w.slug}/projects/${p.id}/members/`;
    // workspace role bounds: Admin only as Admin, Guest only as Guest; outsiders are not workspace members
    for (const members of [
      [{ member_id: admin.userId, role: 15 }],
      [{ member_id: guest.userId, role: 15 }],
      [{ member_id: outsider.userId, role: 5 }],
    ]) {
      assertError(
        await t.api.post(base).auth(member.token, { type: 'bearer' }).send({ members }),
        422,
        'VALIDATION_ERROR',
      );
    }
    const added = await t.api
      .post(base)
      .auth(member.token, { type: 'bearer' })
      .send({
        members: [
          { member_id: guest.userId, role: 5 },
          { member_id: other.userId, role: 15 },
          { member_id: admin.userId, role: 20 },
        ],
      });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.length, 3);
    const list = await t.api.get(base).auth(guest.token, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 4);
    const rowOf = (userId: string) => list.body.find((r: { member: string }) => r.member === userId).id as string;

    // a project Member cannot manage members
    assertError(
      await t.api
        .patch(`${base}${rowOf(guest.userId)}/`)
        .auth(other.token, { type: 'bearer' })
        .send({ role: 5 }),
      403,
      'PERMISSION_DENIED',
    );
    // own role: 403; a Guest cannot become Member
    assertError(
      await t.api
        .patch(`${base}${rowOf(member.userId)}/`)
        .auth(member.token, { type: 'bearer' })
        .send({ role: 15 }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api
        .patch(`${base}${rowOf(guest.userId)}/`)
        .auth(member.token, { type: 'bearer' })
        .send({ role: 15 }),
      422,
      'VALIDATION_ERROR',
    );
    const promoted = await t.api
      .patch(`${base}${rowOf(other.userId)}/`)
      .auth(member.token, { type: 'bearer' })
      .send({ role: 20 });
    assert.equal(promoted.status, 200);
    assert.equal(promoted.body.role, 20);
    const one = await t.api.get(`${base}${rowOf(other.userId)}/`).auth(guest.token, { type: 'bearer' });
    assert.equal(one.body.role, 20);
    // remove: not oneself; then others
    assertError(
      await t.api.delete(`${base}${rowOf(member.userId)}/`).auth(member.token, { type: 'bearer' }),
      400,
      'CANNOT_REMOVE_SELF',
    );
    assert.equal(
      (await t.api.delete(`${base}${rowOf(guest.userId)}/`).auth(member.token, { type: 'bearer' })).status,
      204,
    );
    // no longer a member of this public project: it is visible, but reading it needs a membership
    assertError(
      await t.api.get(`/api/workspaces/${w.slug}/projects/${p.id}/`).auth(guest.token, { type: 'bearer' }),
      403,
      'PERMISSION_DENIED',
    );
    // leaving: the other Admin may go, the last Admin may not
    assert.equal((await t.api.post(`${base}leave/`).auth(other.token, { type: 'bearer' })).status, 204);
    assert.equal((await t.api.post(`${base}leave/`).auth(admin.token, { type: 'bearer' })).status, 204);
    assertError(await t.api.post(`${base}leave/`).auth(member.token, { type: 'bearer' }), 400, 'LAST_PROJECT_ADMIN');
    // a membership row of another project is a 404 here
    const q = await createAppProject(t, member.token, w.slug);
    const qRows = await t.api
      .get(`/api/workspaces/${w.slug}/projects/${q.id}/members/`)
      .auth(member.token, { type: 'bearer' });
    const foreign = qRows.body[0].id;
    assertError(await t.api.get(`${base}${foreign}/`).auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
    assertError(
      await t.api.patch(`${base}${foreign}/`).auth(member.token, { type: 'bearer' }).send({ role: 5 }),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(`${base}${foreign}/`).auth(member.token, { type: 'bearer' }), 404, 'NOT_FOUND');
  });
});
