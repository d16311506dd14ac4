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
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The last App API routes of issue #21: a project's estimate points (`project-estimates/`), the
 * caller's view settings of a project (`project-views/`), the members of the caller's projects
 * (`project-members/`) and releasing an identifier (`DELETE project-identifiers/`).
 */
describe('App API: project estimates, user views, workspace project members, identifiers', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let max: SignedUp; // workspace Member, project Member of `project` only
  let gus: SignedUp; // workspace Guest, project Guest of `project`
  let eve: SignedUp; // Admin of another workspace
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let second: { id: string; identifier: string }; // Ada's alone
  let foreign: { id: string };
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    max = await signUp(t);
    gus = await signUp(t);
    eve = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug);
    second = await createAppProject(t, ada.token, ws.slug, { network: 0 });
    foreign = await createAppProject(t, eve.token, other.slug);
    await addProjectMember(t, ws.id, project.id, max.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
  });
  after(() => t.close());

  it('project-estimates: [] without an estimate, then the points; Guests 403; foreign ids 404', async () => {
    const url = `/api/workspaces/${ws.slug}/projects/${project.id}/project-estimates/`;
    const empty = await t.api.get(url).set(bearer(max));
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.deepEqual(empty.body, []);

    const created = await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${project.id}/estimates/`)
      .set(bearer(ada))
      .send({
        estimate: { name: 'Points', type: 'points' },
        estimate_points: [
          { key: 1, value: '1' },
          { key: 2, value: '2' },
        ],
      });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const points = await t.api.get(url).set(bearer(max));
    assert.equal(points.status, 200, JSON.stringify(points.body));
    assert.equal(points.body.length, 2);
    assert.deepEqual(
      points.body.map((p: { key: number; value: string }) => [p.key, p.value]),
      [
        [1, '1'],
        [2, '2'],
      ],
    );
    for (const p of points.body) assert.equal(p.estimate, created.body.id);

    assertError(await t.api.get(url).set(bearer(gus)), 403, 'PERMISSION_DENIED');
    assertError(
      await t.api.get(`/api/workspaces/${ws.slug}/projects/${foreign.id}/project-estimates/`).set(bearer(ada)),
      404,
      'PROJECT_NOT_FOUND',
    );
    assertError(await t.api.get(url).set(bearer(eve)), 404, 'WORKSPACE_NOT_FOUND');
    assert.equal((await t.api.get(url)).status, 401);
  });

  it('project-views: saves the caller’s own props (204); Guests too; non-members 403; bad props 422', async () => {
    const url = `/api/workspaces/${ws.slug}/projects/${project.id}/project-views/`;
    const saved = await t.api
      .post(url)
      .set(bearer(gus))
      .send({ view_props: { layout: 'kanban' }, sort_order: 1234.5 });
    assert.equal(saved.status, 204, JSON.stringify(saved.body));
    const rows = await t.sql<{ member_id: string; view_props: unknown; default_props: unknown; sort_order: number }>(
      'SELECT member_id, view_props, default_props, sort_order FROM project_members WHERE project_id = $1',
      [project.id],
    );
    const mine = rows.find((r) => r.member_id === gus.userId)!;
    assert.deepEqual(mine.view_props, { layout: 'kanban' });
    assert.deepEqual(mine.default_props, {});
    assert.equal(Number(mine.sort_order), 1234.5);
    // someone else's row is untouched
    assert.deepEqual(rows.find((r) => r.member_id === ada.userId)!.view_props, {});
    // keys not sent keep their value
    const again = await t.api
      .post(url)
      .set(bearer(gus))
      .send({ default_props: { a: 1 } });
    assert.equal(again.status, 204);
    const [row] = await t.sql<{ view_props: unknown; default_props: unknown }>(
      'SELECT view_props, default_props FROM project_members WHERE project_id = $1 AND member_id = $2',
      [project.id, gus.userId],
    );
    assert.deepEqual(row, { view_props: { layout: 'kanban' }, default_props: { a: 1 } });

    assertError(await t.api.post(url).set(bearer(gus)).send({ view_props: 'kanban' }), 422, 'VALIDATION_ERROR');
    assertError(await t.api.post(url).set(bearer(gus)).send({ view_props: null }), 422, 'VALIDATION_ERROR');
    // Max is not in `second` (private): 404; a public project he is not in: 403
    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/projects/${second.id}/project-views/`).set(bearer(max)).send({}),
      404,
      'PROJECT_NOT_FOUND',
    );
    const open = await createAppProject(t, ada.token, ws.slug);
    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/projects/${open.id}/project-views/`).set(bearer(max)).send({}),
      403,
      'PERMISSION_DENIED',
    );
    assertError(
      await t.api.post(`/api/workspaces/${ws.slug}/projects/${foreign.id}/project-views/`).set(bearer(ada)).send({}),
      404,
      'PROJECT_NOT_FOUND',
    );
  });

  it('project-members: the members of the caller’s projects grouped by project', async () => {
    const url = `/api/workspaces/${ws.slug}/project-members/`;
    const asMax = await t.api.get(url).set(bearer(max));
    assert.equal(asMax.status, 200, JSON.stringify(asMax.body));
    assert.deepEqual(Object.keys(asMax.body), [project.id]);
    const members = asMax.body[project.id] as Array<Record<string, unknown>>;
    assert.deepEqual(members.map((m) => m.member).sort(), [ada.userId, max.userId, gus.userId].sort());
    for (const m of members) {
      assert.equal(typeof m.id, 'string');
      assert.equal(typeof m.role, 'number');
      assert.equal('project' in m, false);
    }
    assert.equal(members.find((m) => m.member === gus.userId)!.role, 5);

    const asAda = await t.api.get(url).set(bearer(ada));
    assert.equal(asAda.status, 200);
    assert.ok(asAda.body[project.id] && asAda.body[second.id]);
    assert.deepEqual(
      (asAda.body[second.id] as Array<{ member: string }>).map((m) => m.member),
      [ada.userId],
    );
    // a Guest reads too (Plane's WorkspaceEntityPermission for a GET)
    const asGus = await t.api.get(url).set(bearer(gus));
    assert.equal(asGus.status, 200);
    assert.deepEqual(Object.keys(asGus.body), [project.id]);
    // an inactive membership drops out
    await t.sql('UPDATE project_members SET is_active = false WHERE project_id = $1 AND member_id = $2', [
      project.id,
      gus.userId,
    ]);
    const without = await t.api.get(url).set(bearer(max));
    assert.equal(without.body[project.id].length, 2);
    assert.deepEqual((await t.api.get(url).set(bearer(gus))).body, {});
    await t.sql('UPDATE project_members SET is_active = true WHERE project_id = $1 AND member_id = $2', [
      project.id,
      gus.userId,
    ]);

    assertError(await t.api.get(url).set(bearer(eve)), 404, 'WORKSPACE_NOT_FOUND');
    assert.equal((await t.api.get(url)).status, 401);
  });

  it('DELETE project-identifiers: 400 while a project holds it, 204 once free; Guests 403', async () => {
    const url = `/api/workspaces/${ws.slug}/project-identifiers/`;
    assertError(
      await t.api.delete(url).set(bearer(max)).send({ name: project.identifier.toLowerCase() }),
      400,
      'PROJECT_IDENTIFIER_IN_USE',
    );
    assertError(await t.api.delete(url).set(bearer(max)).send({}), 400, 'MALFORMED_REQUEST');
    assertError(await t.api.delete(url).set(bearer(max)).send({ name: '  ' }), 400, 'MALFORMED_REQUEST');
    assertError(await t.api.delete(url).set(bearer(max)), 400, 'MALFORMED_REQUEST');
    assertError(await t.api.delete(url).set(bearer(max)).send({ name: 7 }), 400, 'MALFORMED_REQUEST');
    const free = await t.api.delete(url).set(bearer(max)).send({ name: 'NOPE' });
    assert.equal(free.status, 204, JSON.stringify(free.body));
    // another workspace's identifier is not this workspace's
    const theirs = await createAppProject(t, eve.token, other.slug);
    assert.equal((await t.api.delete(url).set(bearer(ada)).send({ name: theirs.identifier })).status, 204);
    assertError(await t.api.delete(url).set(bearer(gus)).send({ name: 'NOPE' }), 403, 'PERMISSION_DENIED');
    assertError(await t.api.delete(url).set(bearer(eve)).send({ name: 'NOPE' }), 404, 'WORKSPACE_NOT_FOUND');
  });
  it('archived-cycles/{id} and archived-modules/{id}: the detail of an archived one only', async () => {
    const proj = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const cycle = await t.api
      .post(`${proj}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Old', start_date: '2020-01-01', end_date: '2020-01-10' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const mod = await t.api.post(`${proj}/modules/`).set(bearer(ada)).send({ name: 'Done', status: 'completed' });
    assert.equal(mod.status, 201, JSON.stringify(mod.body));
    // not archived yet: 404
    assertError(await t.api.get(`${proj}/archived-cycles/${cycle.body.id}/`).set(bearer(max)), 404, 'NOT_FOUND');
    assertError(await t.api.get(`${proj}/archived-modules/${mod.body.id}/`).set(bearer(max)), 404, 'NOT_FOUND');
    assert.ok((await t.api.post(`${proj}/cycles/${cycle.body.id}/archive/`).set(bearer(ada)).send({})).status < 300);
    assert.ok((await t.api.post(`${proj}/modules/${mod.body.id}/archive/`).set(bearer(ada)).send({})).status < 300);

    const c = await t.api.get(`${proj}/archived-cycles/${cycle.body.id}/`).set(bearer(max));
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.id, cycle.body.id);
    assert.equal(c.body.name, 'Old');
    assert.equal(typeof c.body.archived_at, 'string');
    assert.equal(typeof c.body.sub_issues, 'number');
    const m = await t.api.get(`${proj}/archived-modules/${mod.body.id}/`).set(bearer(gus));
    assert.equal(m.status, 200, JSON.stringify(m.body));
    assert.equal(m.body.id, mod.body.id);
    assert.equal(typeof m.body.archived_at, 'string');
    assert.ok('link_module' in m.body);
    // the live detail no longer has them
    assertError(await t.api.get(`${proj}/cycles/${cycle.body.id}/`).set(bearer(max)), 404, 'NOT_FOUND');

    // Guests may not read an archived cycle (Plane: ADMIN, MEMBER)
    assertError(
      await t.api.get(`${proj}/archived-cycles/${cycle.body.id}/`).set(bearer(gus)),
      403,
      'PERMISSION_DENIED',
    );
    // another project's id, a random id, a foreign project
    const otherProj = `/api/workspaces/${ws.slug}/projects/${second.id}`;
    assertError(await t.api.get(`${otherProj}/archived-cycles/${cycle.body.id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(await t.api.get(`${otherProj}/archived-modules/${mod.body.id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(
      await t.api.get(`${proj}/archived-modules/00000000-0000-4000-8000-000000000000/`).set(bearer(ada)),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api
        .get(`/api/workspaces/${ws.slug}/projects/${foreign.id}/archived-cycles/${cycle.body.id}/`)
        .set(bearer(ada)),
      404,
      'PROJECT_NOT_FOUND',
    );
  });
  it('issue-attachments (pre-v2): the list and DELETE, as the v2 attachments', async () => {
    const proj = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const issue = await t.api.post(`${proj}/issues/`).set(bearer(max)).send({ name: 'with a file' });
    assert.equal(issue.status, 201, JSON.stringify(issue.body));
    const v2 = `/api/assets/v2/workspaces/${ws.slug}/projects/${project.id}/issues/${issue.body.id}/attachments/`;
    async function upload(by: SignedUp): Promise<string> {
      const res = await t.api.post(v2).set(bearer(by)).send({ name: 'a.txt', type: 'text/plain', size: 3 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const up = res.body.upload_data as { url: string; fields: Record<string, string> };
      const target = new URL(up.url);
      let form = t.api.post(target.pathname + target.search);
      for (const [k, v] of Object.entries(up.fields)) form = form.field(k, v);
      const sent = await form.attach('file', Buffer.from('abc'), { filename: 'a.txt', contentType: 'text/plain' });
      assert.equal(sent.status, 204, JSON.stringify(sent.body));
      assert.equal((await t.api.patch(`${v2}${res.body.asset_id}/`).set(bearer(by))).status, 204);
      return res.body.asset_id;
    }
    const mine = await upload(max);
    const adas = await upload(ada);
    const url = `${proj}/issues/${issue.body.id}/issue-attachments/`;
    const list = await t.api.get(url).set(bearer(max));
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.map((a: { id: string }) => a.id),
      [mine, adas],
    );
    assert.deepEqual(list.body, (await t.api.get(v2).set(bearer(max))).body);

    // someone else's attachment: 403 for a Member, the Admin may
    assertError(await t.api.delete(`${url}${adas}/`).set(bearer(max)), 403, 'PERMISSION_DENIED');
    assert.equal((await t.api.delete(`${url}${mine}/`).set(bearer(max))).status, 204);
    assert.deepEqual(
      (await t.api.get(url).set(bearer(max))).body.map((a: { id: string }) => a.id),
      [adas],
    );
    // a Guest does not see Max's work item (Plane's Guest rule): 404
    assertError(await t.api.get(url).set(bearer(gus)), 404, 'NOT_FOUND');
    // another work item's path, a random id, a foreign project
    const other = await t.api.post(`${proj}/issues/`).set(bearer(ada)).send({ name: 'other' });
    assertError(
      await t.api.delete(`${proj}/issues/${other.body.id}/issue-attachments/${adas}/`).set(bearer(ada)),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(`${url}00000000-0000-4000-8000-000000000000/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(
      await t.api
        .get(`/api/workspaces/${ws.slug}/projects/${foreign.id}/issues/${issue.body.id}/issue-attachments/`)
        .set(bearer(ada)),
      404,
      'PROJECT_NOT_FOUND',
    );
    assert.equal((await t.api.delete(`${url}${adas}/`).set(bearer(ada))).status, 204);
  });
});
