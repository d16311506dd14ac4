import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  membershipId,
  projectMembershipId,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Input as Django REST framework coerces it (Plane 0.25.3's serializers): Plane's web app sends
 * `{"role": "20"}` to change a member's role. Number and boolean fields take DRF's strings, on every
 * route (one place: the validation pipe); junk is still a 422.
 */
describe('DRF input coercions', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let other: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    member = await signUp(t);
    other = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 15);
    await addMember(t, ws.id, other.userId, 15);
    project = await createAppProject(t, admin.token, ws.slug);
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
  });
  after(() => t.close());

  it('a workspace member’s role given as a string, as the web app sends it', async () => {
    const path = `/api/workspaces/${ws.slug}/members/${await membershipId(t, ws.id, other.userId)}/`;
    const patch = (body: object) => t.api.patch(path).auth(admin.token, { type: 'bearer' }).send(body);
    const res = await patch({ role: '5' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.role, 5);
    for (const [given, role] of [
      [' 15 ', 15],
      ['15.0', 15],
      ['20', 20],
    ] as const) {
      const r = await patch({ role: given });
      assert.equal(r.status, 200, `${JSON.stringify(given)}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.role, role);
    }
    for (const junk of ['abc', '20.5', '', '12', 'true', true, [20], { role: 20 }]) {
      assertError(await patch({ role: junk }), 422, 'VALIDATION_ERROR');
    }
  });

  it('a project member’s role given as a string; nested entries too', async () => {
    const path = `/api/workspaces/${ws.slug}/projects/${project.id}/members/`;
    const row = await projectMembershipId(t, project.id, member.userId);
    const res = await t.api.patch(`${path}${row}/`).auth(admin.token, { type: 'bearer' }).send({ role: '20' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.role, 20);
    assertError(
      await t.api.patch(`${path}${row}/`).auth(admin.token, { type: 'bearer' }).send({ role: 'abc' }),
      422,
      'VALIDATION_ERROR',
    );
    const added = await t.api
      .post(path)
      .auth(admin.token, { type: 'bearer' })
      .send({ members: [{ member_id: other.userId, role: '20' }] }); // `other` is a workspace Admin by now
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const rows = await t.sql<{ role: number }>(
      'SELECT role FROM project_members WHERE project_id = $1 AND member_id = $2',
      [project.id, other.userId],
    );
    assert.equal(Number(rows[0].role), 20);
  });

  it('booleans take DRF’s true and false strings; anything else is 422', async () => {
    const path = `/api/workspaces/${ws.slug}/projects/${project.id}/`;
    const patch = (body: object) => t.api.patch(path).auth(admin.token, { type: 'bearer' }).send(body);
    for (const [given, value] of [
      ['false', false],
      ['true', true],
      ['0', false],
      ['1', true],
      ['off', false],
      ['Yes', true],
      [0, false],
      [1, true],
    ] as const) {
      const r = await patch({ cycle_view: given });
      assert.ok(r.status === 200 || r.status === 204, `${JSON.stringify(given)}: ${JSON.stringify(r.body)}`);
      const back = await t.api.get(path).auth(admin.token, { type: 'bearer' });
      assert.equal(back.body.cycle_view, value, JSON.stringify(given));
    }
    for (const junk of ['maybe', '', 2, 'truee']) {
      assertError(await patch({ cycle_view: junk }), 422, 'VALIDATION_ERROR');
    }
  });

  it('string fields are never turned into numbers', async () => {
    const res = await t.api
      .patch(`/api/workspaces/${ws.slug}/projects/${project.id}/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ name: '20' });
    assert.ok(res.status === 200 || res.status === 204, JSON.stringify(res.body));
    const back = await t.api
      .get(`/api/workspaces/${ws.slug}/projects/${project.id}/`)
      .auth(admin.token, { type: 'bearer' });
    assert.equal(back.body.name, '20');
  });
});
