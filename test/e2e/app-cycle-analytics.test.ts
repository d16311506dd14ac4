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

type Row = Record<string, string | number | null>;

/** The UTC day `offset` days from today. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A cycle's analytics and progress as Plane's web app reads them (Plane 0.25.3
 * `CycleAnalyticsEndpoint`, `CycleProgressEndpoint`): counts by state group, the burndown by work
 * items and by estimate points, the per assignee and per label rows, and the module detail's
 * distributions drawn by the same code.
 */
describe('App API: cycle analytics and progress', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let max: SignedUp; // Member
  let gus: SignedUp; // Guest
  let ws: { id: string; slug: string };
  let base: string;
  let other: string; // a project without estimates
  let cycleId: string;
  let moduleId: string;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    max = await signUp(t);
    gus = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    const project = await createAppProject(t, ada.token, ws.slug);
    await addProjectMember(t, ws.id, project.id, max.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    other = `/api/workspaces/${ws.slug}/projects/${(await createAppProject(t, ada.token, ws.slug)).id}`;

    const est = await t.api.post(`${base}/estimates/`).set(bearer(ada)).send({ name: 'Points', type: 'points' });
    assert.equal(est.status, 201, JSON.stringify(est.body));
    const pts = await t.api
      .post(`${base}/estimates/${est.body.id}/estimate-points/`)
      .set(bearer(ada))
      .send([{ value: '2' }, { value: '3' }, { value: '5' }]);
    assert.equal(pts.status, 201, JSON.stringify(pts.body));
    const point = (v: string) => (pts.body as Array<{ id: string; value: string }>).find((p) => p.value === v)!.id;
    assert.equal((await t.api.patch(`${base}/`).set(bearer(ada)).send({ estimate: est.body.id })).status, 200);

    const states = (await t.api.get(`${base}/states/`).set(bearer(ada))).body as Array<{ id: string; group: string }>;
    const group = (g: string) => states.find((s) => s.group === g)!.id;
    const label = async (name: string) =>
      (await t.api.post(`${base}/issue-labels/`).set(bearer(ada)).send({ name, color: '#112233' })).body.id as string;
    const [l1, l2] = [await label('Alpha'), await label('Beta')];
    const item = async (body: Record<string, unknown>) => {
      const res = await t.api.post(`${base}/issues/`).set(bearer(ada)).send(body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    // a: 3 points, Ada, Alpha, done three days ago; b: 5 points, Ada and Max, Alpha and Beta, done
    // yesterday; c: no point, nobody, no label, started; d: 2 points, Max, backlog
    const a = await item({
      name: 'a',
      estimate_point: point('3'),
      assignee_ids: [ada.userId],
      label_ids: [l1],
      state_id: group('completed'),
    });
    const b = await item({
      name: 'b',
      estimate_point: point('5'),
      assignee_ids: [ada.userId, max.userId],
      label_ids: [l1, l2],
      state_id: group('completed'),
    });
    const c = await item({ name: 'c', state_id: group('started') });
    const d = await item({
      name: 'd',
      estimate_point: point('2'),
      assignee_ids: [max.userId],
      state_id: group('backlog'),
    });
    const gone = await item({ name: 'deleted later', estimate_point: point('5'), state_id: group('completed') });
    await t.sql(`UPDATE issues SET completed_at = $2 WHERE id = $1`, [a, `${day(-3)}T10:00:00Z`]);
    await t.sql(`UPDATE issues SET completed_at = $2 WHERE id = $1`, [b, `${day(-1)}T23:30:00Z`]);

    const cycle = await t.api
      .post(`${base}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Sprint', start_date: day(-4), end_date: day(2), timezone: 'UTC' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    cycleId = cycle.body.id;
    const add = await t.api
      .post(`${base}/cycles/${cycleId}/cycle-issues/`)
      .set(bearer(ada))
      .send({ issues: [a, b, c, d, gone] });
    assert.equal(add.status, 200, JSON.stringify(add.body));

    const mod = await t.api
      .post(`${base}/modules/`)
      .set(bearer(ada))
      .send({ name: 'Auth', start_date: day(-4), target_date: day(2) });
    assert.equal(mod.status, 201, JSON.stringify(mod.body));
    moduleId = mod.body.id;
    const addMod = await t.api
      .post(`${base}/modules/${moduleId}/issues/`)
      .set(bearer(ada))
      .send({ issues: [a, b, c, d, gone] });
    assert.ok(addMod.status === 200 || addMod.status === 201, JSON.stringify(addMod.body));
    assert.equal((await t.api.delete(`${base}/issues/${gone}/`).set(bearer(ada))).status, 204);
  });
  after(() => t.close());

  const byAssignee = (rows: Row[], userId: string | null) => rows.find((r) => r.assignee_id === userId);
  const byLabel = (rows: Row[], name: string | null) => rows.find((r) => r.label_name === name);

  it('progress/ and cycle-progress/: counts and estimate points by state group (deleted work items left out)', async () => {
    for (const path of ['progress', 'cycle-progress']) {
      const res = await t.api.get(`${base}/cycles/${cycleId}/${path}/`).set(bearer(ada));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        total_issues: 4,
        total_estimate_points: 10,
        completed_issues: 2,
        completed_estimate_points: 8,
        cancelled_issues: 0,
        cancelled_estimate_points: 0,
        started_issues: 1,
        started_estimate_points: 0,
        unstarted_issues: 0,
        unstarted_estimate_points: 0,
        backlog_issues: 1,
        backlog_estimate_points: 2,
      });
    }
  });

  it('analytics?type=issues: per assignee and label counts, and the burndown by day (null after today)', async () => {
    for (const query of ['?type=issues', '']) {
      const res = await t.api.get(`${base}/cycles/${cycleId}/analytics/${query}`).set(bearer(max));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ['assignees', 'completion_chart', 'labels']);
      assert.deepEqual(res.body.completion_chart, {
        [day(-4)]: 4,
        [day(-3)]: 3,
        [day(-2)]: 3,
        [day(-1)]: 2,
        [day(0)]: 2,
        [day(1)]: 2,
        [day(2)]: 2,
      });
      const assignees = res.body.assignees as Row[];
      assert.equal(assignees.length, 3);
      assert.deepEqual(Object.keys(assignees[0]).sort(), [
        'assignee_id',
        'avatar_url',
        'completed_issues',
        'display_name',
        'pending_issues',
        'total_issues',
      ]);
      const ordered = assignees.map((r) => r.display_name);
      assert.deepEqual(ordered, [...ordered.slice(0, 2).sort(), null], 'by display_name, nobody last');
      assert.deepEqual(
        [ada.userId, max.userId, null].map((id) => {
          const r = byAssignee(assignees, id)!;
          return [r.total_issues, r.completed_issues, r.pending_issues];
        }),
        [
          [2, 2, 0],
          [2, 1, 1],
          [1, 0, 1],
        ],
      );
      const labels = res.body.labels as Row[];
      assert.deepEqual(
        labels.map((r) => [r.label_name, r.color === null ? null : String(r.color).toLowerCase(), r.total_issues]),
        [
          ['Alpha', '#112233', 2],
          ['Beta', '#112233', 1],
          [null, null, 2],
        ],
      );
      assert.deepEqual(
        labels.map((r) => [r.completed_issues, r.pending_issues]),
        [
          [2, 0],
          [1, 0],
          [0, 2],
        ],
      );
      assert.equal(typeof labels[0].label_id, 'string');
    }
  });

  it('analytics?type=points: the same rows and burndown by estimate points', async () => {
    const res = await t.api.get(`${base}/cycles/${cycleId}/analytics/?type=points`).set(bearer(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.completion_chart, {
      [day(-4)]: 10,
      [day(-3)]: 7,
      [day(-2)]: 7,
      [day(-1)]: 2,
      [day(0)]: 2,
      [day(1)]: 2,
      [day(2)]: 2,
    });
    const assignees = res.body.assignees as Row[];
    assert.deepEqual(Object.keys(assignees[0]).sort(), [
      'assignee_id',
      'avatar_url',
      'completed_estimates',
      'display_name',
      'pending_estimates',
      'total_estimates',
    ]);
    assert.deepEqual(
      [ada.userId, max.userId, null].map((id) => {
        const r = byAssignee(assignees, id)!;
        return [r.total_estimates, r.completed_estimates, r.pending_estimates];
      }),
      [
        [8, 8, 0],
        [7, 5, 2],
        [0, 0, 0],
      ],
    );
    const labels = res.body.labels as Row[];
    assert.deepEqual(
      ['Alpha', 'Beta', null].map((n) => {
        const r = byLabel(labels, n)!;
        return [r.total_estimates, r.completed_estimates, r.pending_estimates];
      }),
      [
        [8, 8, 0],
        [5, 5, 0],
        [2, 0, 2],
      ],
    );
  });

  it('a project without a points estimate answers empty lists by points; another type answers empty lists', async () => {
    const cycle = await t.api
      .post(`${other}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Other', start_date: day(-1), end_date: day(1) });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const points = await t.api.get(`${other}/cycles/${cycle.body.id}/analytics/?type=points`).set(bearer(ada));
    assert.equal(points.status, 200, JSON.stringify(points.body));
    assert.deepEqual(points.body, { assignees: [], labels: [], completion_chart: {} });
    const issues = await t.api.get(`${other}/cycles/${cycle.body.id}/analytics/?type=issues`).set(bearer(ada));
    assert.deepEqual(issues.body, {
      assignees: [],
      labels: [],
      completion_chart: { [day(-1)]: 0, [day(0)]: 0, [day(1)]: 0 },
    });
    const odd = await t.api.get(`${base}/cycles/${cycleId}/analytics/?type=hours`).set(bearer(ada));
    assert.deepEqual(odd.body, { assignees: [], labels: [], completion_chart: {} });
  });

  it('the burndown runs over the days of the cycle in its time zone', async () => {
    const cycle = await t.api
      .post(`${other}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Kolkata', start_date: '2024-01-01', end_date: '2024-01-03', timezone: 'Asia/Kolkata' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const item = await t.api.post(`${other}/issues/`).set(bearer(ada)).send({ name: 'late evening' });
    // linked directly: a completed cycle takes no work items through the API
    await t.sql(
      'INSERT INTO cycle_issues (workspace_id, project_id, cycle_id, issue_id) SELECT workspace_id, project_id, $1, id FROM issues WHERE id = $2',
      [cycle.body.id, item.body.id],
    );
    // 20:00 UTC on the 1st is 01:30 on the 2nd in Kolkata
    await t.sql(`UPDATE issues SET completed_at = '2024-01-01T20:00:00Z' WHERE id = $1`, [item.body.id]);
    const res = await t.api.get(`${other}/cycles/${cycle.body.id}/analytics/`).set(bearer(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.completion_chart, { '2024-01-01': 1, '2024-01-02': 0, '2024-01-03': 0 });
  });

  it('a draft cycle answers its rows and an empty chart; a cycle of another project is 404', async () => {
    const draft = await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'Draft' });
    const drafted = await t.api.get(`${base}/cycles/${draft.body.id}/analytics/?type=issues`).set(bearer(ada));
    assert.equal(drafted.status, 200, JSON.stringify(drafted.body));
    assert.deepEqual(drafted.body, { assignees: [], labels: [], completion_chart: {} });
    const foreign = await t.api
      .post(`${other}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Foreign', start_date: day(5), end_date: day(6) });
    for (const path of ['analytics/?type=issues', 'analytics/?type=points', 'progress/', 'cycle-progress/']) {
      assertError(await t.api.get(`${base}/cycles/${foreign.body.id}/${path}`).set(bearer(ada)), 404, 'NOT_FOUND');
    }
    assertError(await t.api.get(`${base}/cycles/not-a-uuid/analytics/`).set(bearer(ada)), 404, 'NOT_FOUND');
  });

  it('a Guest of the project reads analytics and progress (Plane: ADMIN, MEMBER, GUEST); others cannot', async () => {
    for (const path of ['analytics/?type=issues', 'analytics/?type=points', 'progress/', 'cycle-progress/']) {
      const res = await t.api.get(`${base}/cycles/${cycleId}/${path}`).set(bearer(gus));
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    }
    // a workspace member outside the project: 403 (Plane's permission class); outside the workspace: 404
    const bystander = await signUp(t);
    await addMember(t, ws.id, bystander.userId, 15);
    assertError(
      await t.api.get(`${base}/cycles/${cycleId}/analytics/`).set(bearer(bystander)),
      403,
      'PERMISSION_DENIED',
    );
    const stranger = await signUp(t);
    assert.equal((await t.api.get(`${base}/cycles/${cycleId}/analytics/`).set(bearer(stranger))).status, 404);
  });

  it('a module detail draws its distribution and estimate distribution with the same code', async () => {
    const res = await t.api.get(`${base}/modules/${moduleId}/`).set(bearer(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.distribution.completion_chart, {
      [day(-4)]: 4,
      [day(-3)]: 3,
      [day(-2)]: 3,
      [day(-1)]: 2,
      [day(0)]: 2,
      [day(1)]: 2,
      [day(2)]: 2,
    });
    const assignee = byAssignee(res.body.distribution.assignees, max.userId)!;
    assert.ok('first_name' in assignee && 'last_name' in assignee);
    assert.deepEqual([assignee.total_issues, assignee.completed_issues, assignee.pending_issues], [2, 1, 1]);
    assert.deepEqual(res.body.estimate_distribution.completion_chart, {
      [day(-4)]: 10,
      [day(-3)]: 7,
      [day(-2)]: 7,
      [day(-1)]: 2,
      [day(0)]: 2,
      [day(1)]: 2,
      [day(2)]: 2,
    });
    const points = byAssignee(res.body.estimate_distribution.assignees, max.userId)!;
    assert.deepEqual([points.total_estimates, points.completed_estimates, points.pending_estimates], [7, 5, 2]);
    assert.deepEqual(byLabel(res.body.estimate_distribution.labels, null), {
      label_name: null,
      color: null,
      label_id: null,
      total_estimates: 2,
      completed_estimates: 0,
      pending_estimates: 2,
    });
  });
});
