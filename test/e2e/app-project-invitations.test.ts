import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** Project invitations (Plane `plane/app/views/project/invite.py`): invite, list, revoke, answer, join signed in. */
describe('App API: project invitations', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let mia: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest
  let kim: SignedUp; // workspace Member, not in the secret project
  let eve: SignedUp; // not in the workspace
  let ws: { id: string; slug: string };
  let secret: { id: string };
  let other: { id: string };
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const inv = () => `/api/workspaces/${ws.slug}/projects/${secret.id}/invitations`;

  before(async () => {
    t = await startTestApp();
    [ada, mia, gus, kim, eve] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    await addMember(t, ws.id, kim.userId, 15);
    secret = await createAppProject(t, ada.token, ws.slug, { network: 0, name: 'Secret' });
    other = await createAppProject(t, ada.token, ws.slug, { network: 0, name: 'Other' });
    await addProjectMember(t, ws.id, secret.id, mia.userId, 15);
  });
  after(() => t.close());

  const idOf = async (email: string, project = secret.id) => {
    const list = await t.api.get(`/api/workspaces/${ws.slug}/projects/${project}/invitations/`).set(bearer(ada));
    return (list.body as Array<{ id: string; email: string }>).find((i) => i.email === email)!.id;
  };

  it("invites, lists (Plane's fields, no token), retrieves and revokes; project Admins only", async () => {
    const email = `${unique('new')}@Example.com`;
    const r = await t.api
      .post(`${inv()}/`)
      .set(bearer(ada))
      .send({ emails: [{ email, role: 15 }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { message: 'Email sent successfully' });
    const list = await t.api.get(`${inv()}/`).set(bearer(ada));
    assert.equal(list.status, 200);
    const row = list.body.find((i: { email: string }) => i.email === email.toLowerCase());
    assert.deepEqual(Object.keys(row).sort(), [
      'accepted',
      'created_at',
      'created_by',
      'deleted_at',
      'email',
      'id',
      'message',
      'project',
      'responded_at',
      'role',
      'updated_at',
      'updated_by',
      'workspace',
    ]);
    assert.equal(row.role, 15);
    assert.equal(row.project.id, secret.id);
    assert.equal(row.workspace.slug, ws.slug);
    assert.ok(!('token' in row));
    const one = await t.api.get(`${inv()}/${row.id}/`).set(bearer(ada));
    assert.equal(one.status, 200);
    assert.equal(one.body.id, row.id);
    // another project's id is a 404
    assertError(
      await t.api.get(`/api/workspaces/${ws.slug}/projects/${other.id}/invitations/${row.id}/`).set(bearer(ada)),
      404,
      'INVITATION_NOT_FOUND',
    );
    // a second invite of the same email keeps the first
    await t.api
      .post(`${inv()}/`)
      .set(bearer(ada))
      .send({ emails: [{ email, role: 5 }] });
    assert.equal(
      (await t.api.get(`${inv()}/`).set(bearer(ada))).body.filter(
        (i: { email: string }) => i.email === email.toLowerCase(),
      ).length,
      1,
    );
    assertError(await t.api.get(`${inv()}/`).set(bearer(mia)), 403, 'PERMISSION_DENIED');
    assertError(
      await t.api
        .post(`${inv()}/`)
        .set(bearer(mia))
        .send({ emails: [{ email: 'x@example.com' }] }),
      403,
      'PERMISSION_DENIED',
    );
    const del = await t.api.delete(`${inv()}/${row.id}/`).set(bearer(ada));
    assert.equal(del.status, 204);
    assertError(await t.api.get(`${inv()}/${row.id}/`).set(bearer(ada)), 404, 'INVITATION_NOT_FOUND');
  });

  it('refuses no emails, bad emails and a workspace Guest invited with another role', async () => {
    assertError(await t.api.post(`${inv()}/`).set(bearer(ada)).send({ emails: [] }), 422, 'VALIDATION_ERROR');
    assertError(
      await t.api
        .post(`${inv()}/`)
        .set(bearer(ada))
        .send({ emails: [{ email: 'nope' }] }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(`${inv()}/`)
        .set(bearer(ada))
        .send({ emails: [{ email: gus.email, role: 15 }] }),
      400,
      'INVITE_ROLE_MISMATCH',
    );
    const ok = await t.api
      .post(`${inv()}/`)
      .set(bearer(ada))
      .send({ emails: [{ email: gus.email, role: 5 }] });
    assert.equal(ok.status, 200);
  });

  it('the invitee lists theirs and joins a secret project signed in; the invitation is accepted', async () => {
    await t.api
      .post(`${inv()}/`)
      .set(bearer(ada))
      .send({ emails: [{ email: kim.email, role: 15 }] });
    const mine = await t.api.get(`/api/users/me/workspaces/${ws.slug}/projects/invitations/`).set(bearer(kim));
    assert.equal(mine.status, 200);
    assert.deepEqual(
      mine.body.map((i: { project: { id: string } }) => i.project.id),
      [secret.id],
    );
    // not invited to `other`, which is secret: refused
    assertError(
      await t.api
        .post(`/api/users/me/workspaces/${ws.slug}/projects/invitations/`)
        .set(bearer(kim))
        .send({ project_ids: [other.id] }),
      404,
      'PROJECT_NOT_FOUND',
    );
    const join = await t.api
      .post(`/api/users/me/workspaces/${ws.slug}/projects/invitations/`)
      .set(bearer(kim))
      .send({ project_ids: [secret.id] });
    assert.equal(join.status, 201, JSON.stringify(join.body));
    const me = await t.api.get(`/api/workspaces/${ws.slug}/projects/${secret.id}/project-members/me/`).set(bearer(kim));
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.role, 15);
    const row = await t.api.get(`${inv()}/${await idOf(kim.email)}/`).set(bearer(ada));
    assert.equal(row.body.accepted, true);
    assert.ok(row.body.responded_at);
  });

  it('join/{id}/: public, with the invited email; accept adds the account to the workspace and project', async () => {
    await t.api
      .post(`${inv()}/`)
      .set(bearer(ada))
      .send({ emails: [{ email: eve.email, role: 20 }] });
    const id = await idOf(eve.email);
    const join = `/api/workspaces/${ws.slug}/projects/${secret.id}/join/${id}/`;
    // what a join screen needs, and nothing of the invitee or the project beyond it
    await t.sql(`UPDATE projects SET description = 'the secret plan' WHERE id = $1`, [secret.id]);
    const read = await t.api.get(join);
    assert.equal(read.status, 200);
    assert.deepEqual(Object.keys(read.body).sort(), ['accepted', 'id', 'project', 'responded_at', 'workspace']);
    assert.equal(read.body.id, id);
    assert.deepEqual(Object.keys(read.body.project).sort(), ['id', 'identifier', 'logo_props', 'name']);
    assert.equal(read.body.project.id, secret.id);
    assert.deepEqual(Object.keys(read.body.workspace).sort(), ['id', 'logo_url', 'name', 'slug']);
    assert.equal(read.body.workspace.slug, ws.slug);
    assert.equal(read.body.accepted, false);
    assert.equal(read.body.responded_at, null);
    assert.doesNotMatch(JSON.stringify(read.body), new RegExp(`${eve.email}|secret plan`, 'i'));
    assertError(
      await t.api.post(join).send({ email: 'someone@example.com', accepted: true }),
      403,
      'INVITATION_EMAIL_MISMATCH',
    );
    assertError(
      await t.api.get(`/api/workspaces/${ws.slug}/projects/${other.id}/join/${id}/`),
      404,
      'INVITATION_NOT_FOUND',
    );
    const ok = await t.api.post(join).send({ email: eve.email, accepted: true });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, { message: 'Project Invitation Accepted' });
    const answered = await t.api.get(join);
    assert.equal(answered.body.accepted, true);
    assert.ok(answered.body.responded_at);
    assertError(await t.api.post(join).send({ email: eve.email, accepted: true }), 400, 'INVITATION_ALREADY_RESPONDED');
    const wsMe = await t.api.get(`/api/workspaces/${ws.slug}/workspace-members/me/`).set(bearer(eve));
    assert.equal(wsMe.status, 200);
    assert.equal(wsMe.body.role, 15);
    const pMe = await t.api
      .get(`/api/workspaces/${ws.slug}/projects/${secret.id}/project-members/me/`)
      .set(bearer(eve));
    assert.equal(pMe.status, 200);
    assert.equal(pMe.body.role, 15);
  });

  it('join/{id}/: declining records the answer; an email without an account cannot accept', async () => {
    const email = `${unique('nobody')}@example.com`;
    await t.api
      .post(`${inv()}/`)
      .set(bearer(ada))
      .send({ emails: [{ email }, { email: `d${email}` }] });
    const join = async (e: string) => `/api/workspaces/${ws.slug}/projects/${secret.id}/join/${await idOf(e)}/`;
    assertError(await t.api.post(await join(email)).send({ email, accepted: true }), 404, 'USER_DOES_NOT_EXIST');
    const no = await t.api.post(await join(`d${email}`)).send({ email: `d${email}`, accepted: false });
    assert.equal(no.status, 200);
    assert.deepEqual(no.body, { message: 'Project Invitation was not accepted' });
  });
});
