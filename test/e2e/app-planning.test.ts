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
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The App API's work-tracking surface as a web client uses it: sign in, create a project, walk a
 * board (states, then work items grouped by state), plan with cycles and modules, search, comment,
 * get a notification.
 */
describe('App API: planning surface, search and the web client walk', () => {
  let t: TestApp;
  let ada: SignedUp;
  let gus: SignedUp; // Guest
  let ws: { id: string; slug: string };
  let key: string;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    ada = await signUp(t);
    gus = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, gus.userId, 5);
    key = await createApiKey(t, ada.token, ws.slug);
  });
  after(() => t.close());

  it('web client walk: sign in, create a project, walk the board grouped by state, open and edit, comment, get notifications', async () => {
    // everything below is the App API with the Bearer token the sign-in gave: no API key
    const signIn = await t.api.post('/auth/sign-in/').send({ email: ada.email, password: ada.password });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    const me = { ...ada, token: signIn.body.access_token as string };
    const project = await createAppProject(t, me.token, ws.slug, { identifier: 'WALK', name: 'Walk' });
    const bob = await signUp(t); // a Member, to assign (Guests cannot be assignees, as in Plane)
    await addMember(t, ws.id, bob.userId, 15);
    await addProjectMember(t, ws.id, project.id, bob.userId, 15);
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const states = await t.api.get(`${base}/states/`).set(bearer(me));
    assert.equal(states.status, 200);
    const groups = states.body.map((s: { group: string }) => s.group);
    for (const g of ['backlog', 'unstarted', 'started', 'completed', 'cancelled']) assert.ok(groups.includes(g), g);
    const started = states.body.find((s: { group: string }) => s.group === 'started');
    const a = await t.api.post(`${base}/issues/`).set(bearer(me)).send({ name: 'Backlog item' });
    const b = await t.api.post(`${base}/issues/`).set(bearer(me)).send({ name: 'Started item', state_id: started.id });
    assert.deepEqual([a.status, b.status], [201, 201], JSON.stringify(a.body));
    // the board: work items grouped by state, every state a column
    const board = await t.api.get(`${base}/issues/?group_by=state_id`).set(bearer(me));
    assert.equal(board.status, 200, JSON.stringify(board.body));
    assert.equal(board.body.grouped_by, 'state_id');
    assert.equal(Object.keys(board.body.results).length, states.body.length);
    assert.deepEqual(
      board.body.results[started.id].results.map((i: { name: string }) => i.name),
      ['Started item'],
    );
    assert.deepEqual(
      board.body.results[a.body.state_id].results.map((i: { name: string }) => i.name),
      ['Backlog item'],
    );
    // open the item, then edit it: a label and an assignee (the Member)
    const opened = await t.api.get(`${base}/issues/${a.body.id}/`).set(bearer(me));
    assert.equal(opened.status, 200);
    assert.equal(opened.body.name, 'Backlog item');
    const label = await t.api.post(`${base}/issue-labels/`).set(bearer(me)).send({ name: 'bug', color: '#ff0000' });
    assert.equal(label.status, 201, JSON.stringify(label.body));
    const edit = await t.api
      .patch(`${base}/issues/${a.body.id}/`)
      .set(bearer(me))
      .send({ label_ids: [label.body.id], assignee_ids: [bob.userId] });
    assert.equal(edit.status, 204, JSON.stringify(edit.body));
    const reopened = await t.api.get(`${base}/issues/${a.body.id}/`).set(bearer(me));
    assert.deepEqual(reopened.body.label_ids, [label.body.id]);
    assert.deepEqual(reopened.body.assignee_ids, [bob.userId]);
    // the assignment notified the Member; a comment on the item they now follow notifies them again
    const comment = await t.api
      .post(`${base}/issues/${a.body.id}/comments/`)
      .set(bearer(me))
      .send({ comment_html: '<p>on it</p>' });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    const notes = await t.api.get(`/api/workspaces/${ws.slug}/users/notifications/`).set(bearer(bob));
    assert.equal(notes.status, 200);
    assert.equal(notes.body.length, 2, JSON.stringify(notes.body));
    for (const n of notes.body) {
      assert.equal(n.data.issue.id, a.body.id);
      assert.equal(n.data.issue.identifier, 'WALK');
    }
    const unread = await t.api.get(`/api/workspaces/${ws.slug}/users/notifications/unread/`).set(bearer(bob));
    assert.equal(unread.status, 200, JSON.stringify(unread.body));
    // the author is not notified of their own changes
    const mine = await t.api.get(`/api/workspaces/${ws.slug}/users/notifications/`).set(bearer(me));
    assert.equal(mine.body.length, 0);
  });

  it('cycles carry progress counts and estimate points; progress/ sums them by state group', async () => {
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'CYC', name: 'Cycles' });
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const v1 = `/api/v1/workspaces/${ws.slug}/projects/${project.id}`;
    const est = await t.api.post(`${base}/estimates/`).set(bearer(ada)).send({ name: 'Points', type: 'points' });
    assert.equal(est.status, 201, JSON.stringify(est.body));
    const pts = await t.api
      .post(`${base}/estimates/${est.body.id}/estimate-points/`)
      .set(bearer(ada))
      .send([{ value: '3' }, { value: '5' }]);
    assert.equal(pts.status, 201, JSON.stringify(pts.body));
    assert.equal((await t.api.patch(`${base}/`).set(bearer(ada)).send({ estimate: est.body.id })).status, 200);
    const states = (await t.api.get(`${base}/states/`).set(bearer(ada))).body as Array<{
      id: string;
      group: string;
    }>;
    const done = states.find((s) => s.group === 'completed')!;
    const cycle = await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'Sprint 1' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    assert.equal(cycle.body.total_issues, 0);
    assert.equal(cycle.body.total_estimate_points, 0);
    const i1 = await t.api
      .post(`${v1}/issues/`)
      .set('X-API-Key', key)
      .send({ name: 'one', estimate_point: pts.body[0].id, state: done.id });
    const i2 = await t.api
      .post(`${v1}/issues/`)
      .set('X-API-Key', key)
      .send({ name: 'two', estimate_point: pts.body[1].id });
    const i3 = await t.api.post(`${v1}/issues/`).set('X-API-Key', key).send({ name: 'three' });
    assert.deepEqual([i1.status, i2.status, i3.status], [201, 201, 201], JSON.stringify(i1.body));
    const add = await t.api
      .post(`${base}/cycles/${cycle.body.id}/cycle-issues/`)
      .set(bearer(ada))
      .send({ issues: [i1.body.id, i2.body.id, i3.body.id] });
    assert.equal(add.status, 200, JSON.stringify(add.body));
    const list = await t.api.get(`${base}/cycles/`).set(bearer(ada));
    const c = list.body.find((x: { id: string }) => x.id === cycle.body.id);
    assert.equal(c.total_issues, 3);
    assert.equal(c.completed_issues, 1);
    assert.equal(c.backlog_issues, 2);
    assert.equal(c.total_estimate_points, 8);
    assert.equal(c.completed_estimate_points, 3);
    const progress = await t.api.get(`${base}/cycles/${cycle.body.id}/progress/`).set(bearer(ada));
    assert.equal(progress.status, 200);
    assert.equal(progress.body.total_issues, 3);
    assert.equal(progress.body.completed_issues, 1);
    assert.equal(
      progress.body.total_issues - progress.body.completed_issues - progress.body.cancelled_issues,
      2,
      'pending',
    );
    assert.equal(progress.body.backlog_estimate_points, 5);
    // the "add existing work item" picker for cycles leaves out items already in a cycle
    const i4 = await t.api.post(`${v1}/issues/`).set('X-API-Key', key).send({ name: 'four' });
    const picker = await t.api.get(`${base}/search-issues/`).query({ search: '', cycle: 'true' }).set(bearer(ada));
    assert.equal(picker.status, 200);
    assert.deepEqual(
      picker.body.map((r: { id: string }) => r.id),
      [i4.body.id],
    );
    // modules: add, list its work items, picker leaves them out
    const mod = await t.api.post(`${base}/modules/`).set(bearer(ada)).send({ name: 'Auth' });
    assert.equal(mod.status, 201);
    assert.equal(
      (
        await t.api
          .post(`${base}/modules/${mod.body.id}/issues/`)
          .set(bearer(ada))
          .send({ issues: [i4.body.id] })
      ).status,
      200,
    );
    const mIssues = await t.api.get(`${base}/modules/${mod.body.id}/issues/`).set(bearer(ada));
    assert.deepEqual(
      mIssues.body.results.map((r: { id: string }) => r.id),
      [i4.body.id],
    );
    const mPicker = await t.api.get(`${base}/search-issues/`).query({ module: mod.body.id }).set(bearer(ada));
    assert.ok(!mPicker.body.some((r: { id: string }) => r.id === i4.body.id));
    assert.equal(mPicker.body.length, 3);
    // picking a parent for i1 leaves out i1 itself and its sub-items
    await t.api.patch(`${v1}/issues/${i2.body.id}/`).set('X-API-Key', key).send({ parent: i1.body.id });
    const parents = await t.api
      .get(`${base}/search-issues/`)
      .query({ issue_id: i1.body.id, parent: 'true' })
      .set(bearer(ada));
    assert.deepEqual(parents.body.map((r: { id: string }) => r.id).sort(), [i3.body.id, i4.body.id].sort());
    const subs = await t.api
      .get(`${base}/search-issues/`)
      .query({ issue_id: i2.body.id, sub_issue: 'true' })
      .set(bearer(ada));
    assert.ok(!subs.body.some((r: { id: string }) => r.id === i1.body.id || r.id === i2.body.id));
  });

  it('estimates: Plane’s create body makes the estimate and its points together, or nothing', async () => {
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'EST', name: 'Estimates' });
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const bad = await t.api
      .post(`${base}/estimates/`)
      .set(bearer(ada))
      .send({
        estimate: { name: 'Fib', type: 'points' },
        estimate_points: [
          { key: 0, value: '1' },
          { key: 1, value: 'large' },
        ],
      });
    assertError(bad, 422, 'VALIDATION_ERROR');
    assert.equal((await t.api.get(`${base}/estimates/`).set(bearer(ada))).body.length, 0);
    const ok = await t.api
      .post(`${base}/estimates/`)
      .set(bearer(ada))
      .send({
        estimate: { name: 'Fib', type: 'points' },
        estimate_points: [
          { key: 0, value: '1' },
          { key: 1, value: '2' },
        ],
      });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.name, 'Fib');
    assert.deepEqual(
      ok.body.points.map((p: { value: string }) => p.value),
      ['1', '2'],
    );
    const list = await t.api.get(`${base}/estimates/`).set(bearer(ada));
    assert.deepEqual(
      list.body.map((e: { id: string }) => e.id),
      [ok.body.id],
    );
    const points = await t.api.get(`${base}/estimates/${ok.body.id}/estimate-points/`).set(bearer(ada));
    assert.equal(points.body.length, 2);
    assertError(
      await t.api.post(`${base}/estimates/`).set(bearer(ada)).send({ name: 'Second' }),
      409,
      'ESTIMATE_EXISTS',
    );
    assertError(await t.api.get(`${base}/estimates/${project.id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
  });

  it('search: Plane’s result shape, only what the caller can see', async () => {
    const secret = await createAppProject(t, ada.token, ws.slug, {
      identifier: 'ZEBRA',
      name: 'Zebra secret',
      network: 0,
    });
    const open = await createAppProject(t, ada.token, ws.slug, { identifier: 'ZOPEN', name: 'Zebra open', network: 2 });
    await addProjectMember(t, ws.id, open.id, gus.userId, 5);
    const v1 = (p: { id: string }) => `/api/v1/workspaces/${ws.slug}/projects/${p.id}/issues/`;
    await t.api.post(v1(secret)).set('X-API-Key', key).send({ name: 'zebra hidden' });
    const visible = await t.api.post(v1(open)).set('X-API-Key', key).send({ name: 'zebra visible' });
    const mine = await t.api.get(`/api/workspaces/${ws.slug}/search/`).query({ search: 'zebra' }).set(bearer(ada));
    assert.equal(mine.status, 200);
    assert.deepEqual(Object.keys(mine.body.results).sort(), [
      'cycle',
      'issue',
      'issue_view',
      'module',
      'page',
      'project',
      'workspace',
    ]);
    assert.equal(mine.body.results.issue.length, 2);
    assert.equal(mine.body.results.project.length, 2);
    const guest = await t.api.get(`/api/workspaces/${ws.slug}/search/`).query({ search: 'zebra' }).set(bearer(gus));
    assert.deepEqual(
      guest.body.results.issue.map((i: { id: string }) => i.id),
      [visible.body.id],
    );
    assert.deepEqual(
      guest.body.results.project.map((p: { identifier: string }) => p.identifier),
      ['ZOPEN'],
    );
    assert.equal(guest.body.results.issue[0].project__identifier, 'ZOPEN');
    const byKey = await t.api.get(`/api/workspaces/${ws.slug}/search/`).query({ search: 'ZOPEN-1' }).set(bearer(gus));
    assert.deepEqual(
      byKey.body.results.issue.map((i: { id: string }) => i.id),
      [visible.body.id],
    );
    // workspace-wide states and labels: only the caller's projects
    await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${secret.id}/issue-labels/`)
      .set(bearer(ada))
      .send({ name: 'secret-label' });
    const wsStates = await t.api.get(`/api/workspaces/${ws.slug}/states/`).set(bearer(gus));
    assert.equal(wsStates.status, 200);
    assert.ok(wsStates.body.length >= 5);
    assert.ok(wsStates.body.every((st: { project: string }) => st.project !== secret.id));
    assert.ok(
      (await t.api.get(`/api/workspaces/${ws.slug}/states/`).set(bearer(ada))).body.some(
        (st: { project: string }) => st.project === secret.id,
      ),
    );
    const wsLabels = await t.api.get(`/api/workspaces/${ws.slug}/labels/`).set(bearer(gus));
    assert.ok(!wsLabels.body.some((l: { name: string }) => l.name === 'secret-label'));
    assert.ok(
      (await t.api.get(`/api/workspaces/${ws.slug}/labels/`).set(bearer(ada))).body.some(
        (l: { name: string }) => l.name === 'secret-label',
      ),
    );
    const empty = await t.api.get(`/api/workspaces/${ws.slug}/search/`).set(bearer(gus));
    assert.equal(empty.body.results.issue.length, 0);
  });

  it('ids of another workspace are 404 on the planning routes', async () => {
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'OWN', name: 'Own' });
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const state = (await t.api.get(`${base}/states/`).set(bearer(ada))).body[0].id;
    const label = (await t.api.post(`${base}/issue-labels/`).set(bearer(ada)).send({ name: 'x' })).body.id;
    const cycle = (await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'c' })).body.id;
    const mod = (await t.api.post(`${base}/modules/`).set(bearer(ada)).send({ name: 'm' })).body.id;
    const sticky = (await t.api.post(`/api/workspaces/${ws.slug}/stickies/`).set(bearer(ada)).send({ name: 's' })).body
      .id;
    const stranger = await signUp(t);
    const other = await createWorkspace(t, stranger.token);
    const otherProject = await createAppProject(t, stranger.token, other.slug, { identifier: 'OTH', name: 'Other' });
    const obase = `/api/workspaces/${other.slug}/projects/${otherProject.id}`;
    const calls: Array<[string, string]> = [
      ['get', `${obase}/states/${state}/`],
      ['patch', `${obase}/states/${state}/`],
      ['delete', `${obase}/states/${state}/`],
      ['get', `${obase}/issue-labels/${label}/`],
      ['delete', `${obase}/issue-labels/${label}/`],
      ['get', `${obase}/cycles/${cycle}/`],
      ['get', `${obase}/cycles/${cycle}/progress/`],
      ['delete', `${obase}/cycles/${cycle}/`],
      ['get', `${obase}/modules/${mod}/`],
      ['delete', `${obase}/modules/${mod}/`],
      ['get', `/api/workspaces/${other.slug}/stickies/${sticky}/`],
      ['delete', `/api/workspaces/${other.slug}/stickies/${sticky}/`],
      ['get', `/api/workspaces/${other.slug}/projects/${project.id}/states/`],
      ['get', `${obase}/search-issues/?module=${mod}`],
    ];
    for (const [method, url] of calls) {
      const res = await t.api[method as 'get'](url)
        .set(bearer(stranger))
        .send(method === 'patch' ? { name: 'hijack' } : undefined);
      assert.equal(res.status, 404, `${method} ${url}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await t.api.get(`${base}/states/${state}/`).set(bearer(ada))).status, 200);
    assert.equal((await t.api.get(`${base}/cycles/${cycle}/`).set(bearer(ada))).status, 200);
  });

  it('Guests do not read other members’ emails in member lists (App API and v1), but see their own', async () => {
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'MAIL', name: 'Mail' });
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    // the project member list gives the user as an id (Plane's ProjectMemberRoleSerializer): no email at all
    const list = await t.api.get(`${base}/members/`).set(bearer(gus));
    assert.equal(list.status, 200);
    const rows = list.body as Array<{ id: string; member: string }>;
    assert.ok(rows.every((r) => typeof r.member === 'string'));
    const adaRow = rows.find((r) => r.member === ada.userId)!;
    const one = await t.api.get(`${base}/members/${adaRow.id}/`).set(bearer(gus));
    assert.equal(one.status, 200);
    assert.equal(one.body.member.email, undefined);
    const gusRow = rows.find((r) => r.member === gus.userId)!;
    assert.equal((await t.api.get(`${base}/members/${gusRow.id}/`).set(bearer(gus))).body.member.email, gus.email);
    // Admins still see emails
    assert.equal((await t.api.get(`${base}/members/${gusRow.id}/`).set(bearer(ada))).body.member.email, gus.email);
    const rowOf = (rows: Array<{ member: { id: string; email?: string } }>, id: string) =>
      rows.find((r) => r.member.id === id)!;
    // the workspace member list: own email only
    const wsList = await t.api.get(`/api/workspaces/${ws.slug}/members/`).set(bearer(gus));
    assert.equal(rowOf(wsList.body, ada.userId).member.email, undefined);
    assert.equal(rowOf(wsList.body, gus.userId).member.email, gus.email);
    assert.equal(
      (
        await t.api
          .get(`/api/workspaces/${ws.slug}/members/${await membershipId(t, ws.id, ada.userId)}/`)
          .set(bearer(gus))
      ).body.member.email,
      undefined,
    );
    // v1 with a Guest's key
    await t.sql('UPDATE workspace_members SET role = 20 WHERE workspace_id = $1 AND member_id = $2', [
      ws.id,
      gus.userId,
    ]);
    const gusKey = await createApiKey(t, gus.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = 5 WHERE workspace_id = $1 AND member_id = $2', [
      ws.id,
      gus.userId,
    ]);
    const v1 = await t.api.get(`/api/v1/workspaces/${ws.slug}/members/`).set('X-API-Key', gusKey);
    assert.equal(v1.status, 200, JSON.stringify(v1.body));
    assert.equal(v1.body.find((m: { id: string }) => m.id === ada.userId).email, undefined);
    assert.equal(v1.body.find((m: { id: string }) => m.id === gus.userId).email, gus.email);
    const v1p = await t.api
      .get(`/api/v1/workspaces/${ws.slug}/projects/${project.id}/members/`)
      .set('X-API-Key', gusKey);
    assert.equal(v1p.body.find((m: { id: string }) => m.id === ada.userId).email, undefined);
    const v1Admin = await t.api.get(`/api/v1/workspaces/${ws.slug}/members/`).set('X-API-Key', key);
    assert.equal(v1Admin.body.find((m: { id: string }) => m.id === gus.userId).email, gus.email);
  });

  it('intake and stickies through the App API', async () => {
    const project = await createAppProject(t, ada.token, ws.slug, { identifier: 'INQ', name: 'Intake' });
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    assertError(await t.api.get(`${base}/intake-issues/`).set(bearer(ada)), 400, 'INTAKE_NOT_ENABLED');
    await t.api.patch(`${base}/`).set(bearer(ada)).send({ intake_view: true });
    const sub = await t.api
      .post(`${base}/intake-issues/`)
      .set(bearer(gus))
      .send({ issue: { name: 'Guest report' } });
    assert.equal(sub.status, 201, JSON.stringify(sub.body));
    assertError(
      await t.api.patch(`${base}/intake-issues/${sub.body.issue.id}/`).set(bearer(gus)).send({ status: 1 }),
      403,
      'PERMISSION_DENIED',
    );
    const accepted = await t.api
      .patch(`${base}/intake-issues/${sub.body.issue.id}/`)
      .set(bearer(ada))
      .send({ status: 1 });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.status, 1);
    const mine = await t.api.post(`/api/workspaces/${ws.slug}/stickies/`).set(bearer(gus)).send({ name: 'note' });
    assert.equal(mine.status, 201);
    assertError(
      await t.api.get(`/api/workspaces/${ws.slug}/stickies/${mine.body.id}/`).set(bearer(ada)),
      404,
      'NOT_FOUND',
    );
    assert.ok(
      !(await t.api.get(`/api/workspaces/${ws.slug}/stickies/`).set(bearer(ada))).body.results.some(
        (s: { id: string }) => s.id === mine.body.id,
      ),
    );
  });
});
