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
import { CapturedMail, SmtpCapture, startSmtpCapture } from '../support/smtp';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, unknown>;

/**
 * Workspace analytics as Plane's web app reads them (Plane 0.25.3 `app/views/analytic/base.py`,
 * `utils/analytics_plot.py`; the home graphs of `app/views/workspace/user.py`): numbers over a
 * small known data set, Plane's validation, roles, saved charts and foreign ids.
 */
describe('App API: analytics', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let max: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest
  let out: SignedUp; // not a member
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let projectId: string;
  let secretProjectId: string;
  let states: Array<{ id: string; group: string; name: string }>;
  let l1: string;
  let l2: string;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const api = () => `/api/workspaces/${ws.slug}`;

  before(async () => {
    t = await startTestApp();
    [ada, max, gus, out] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, out.token);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    const project = await createAppProject(t, ada.token, ws.slug);
    projectId = project.id;
    await addProjectMember(t, ws.id, projectId, max.userId, 15);
    // a project Max is not in: its work items are not counted for him
    secretProjectId = (await createAppProject(t, ada.token, ws.slug)).id;
    const base = `${api()}/projects/${projectId}`;
    states = (await t.api.get(`${base}/states/`).set(bearer(ada))).body;
    const group = (g: string) => states.find((s) => s.group === g)!.id;
    const label = async (name: string) =>
      (await t.api.post(`${base}/issue-labels/`).set(bearer(ada)).send({ name, color: '#112233' })).body.id as string;
    [l1, l2] = [await label('Alpha'), await label('Beta')];
    const item = async (p: string, body: Record<string, unknown>) => {
      const res = await t.api.post(`${api()}/projects/${p}/issues/`).set(bearer(ada)).send(body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    // a: high, done, Alpha, Ada; b: high, started, Alpha+Beta, Ada+Max; c: low, backlog; d: urgent, done, Max
    const a = await item(projectId, {
      name: 'a',
      priority: 'high',
      state_id: group('completed'),
      label_ids: [l1],
      assignee_ids: [ada.userId],
      start_date: '2025-03-04',
    });
    await item(projectId, {
      name: 'b',
      priority: 'high',
      state_id: group('started'),
      label_ids: [l1, l2],
      assignee_ids: [ada.userId, max.userId],
      start_date: '2025-03-20',
    });
    await item(projectId, { name: 'c', priority: 'low', state_id: group('backlog'), start_date: '2025-11-01' });
    const d = await item(projectId, {
      name: 'd',
      priority: 'urgent',
      state_id: group('completed'),
      assignee_ids: [max.userId],
    });
    await item(secretProjectId, { name: 'secret', priority: 'none' });
    const year = new Date().getUTCFullYear();
    await t.sql(`UPDATE issues SET completed_at = $2 WHERE id = $1`, [a, `${year}-02-03T10:00:00Z`]);
    await t.sql(`UPDATE issues SET completed_at = $2 WHERE id = $1`, [d, `${year}-02-10T10:00:00Z`]);
  });

  after(async () => {
    await t?.close();
  });

  it('counts work items per priority, in Plane’s key order', async () => {
    const res = await t.api.get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count`).set(bearer(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.total, 5);
    assert.deepEqual(Object.keys(res.body.distribution), ['low', 'high', 'urgent', 'none']);
    assert.deepEqual(res.body.distribution.high, [{ dimension: 'high', count: 2 }]);
    assert.deepEqual(Object.keys(res.body.extras).sort(), [
      'assignee_details',
      'cycle_details',
      'label_details',
      'module_details',
      'state_details',
    ]);
    assert.deepEqual(res.body.extras.state_details, {});
  });

  it('counts only the projects the caller is a member of', async () => {
    const res = await t.api.get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count`).set(bearer(max));
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 4);
    assert.equal(res.body.distribution.none, undefined);
  });

  it('segments by state group, labels by id with their details, and months of dates', async () => {
    const seg = await t.api
      .get(`${api()}/analytics/?x_axis=labels__id&y_axis=issue_count&segment=state__group`)
      .set(bearer(ada));
    assert.equal(seg.status, 200, JSON.stringify(seg.body));
    assert.deepEqual(seg.body.distribution[l1].map((r: Row) => [r.segment, r.count]).sort(), [
      ['completed', 1],
      ['started', 1],
    ]);
    assert.deepEqual(seg.body.distribution[l2], [{ dimension: l2, segment: 'started', count: 1 }]);
    const names = (seg.body.extras.label_details as Row[]).map((l) => l.labels__name).sort();
    assert.deepEqual(names, ['Alpha', 'Beta']);
    assert.deepEqual(Object.keys(seg.body.extras.label_details[0]).sort(), [
      'labels__color',
      'labels__id',
      'labels__name',
    ]);

    const months = await t.api.get(`${api()}/analytics/?x_axis=start_date&y_axis=issue_count`).set(bearer(ada));
    assert.deepEqual(months.body.distribution, {
      '2025-11': [{ dimension: '2025-11', count: 1 }],
      '2025-3': [{ dimension: '2025-3', count: 2 }],
    });

    const assignees = await t.api
      .get(`${api()}/analytics/?x_axis=assignees__id&y_axis=issue_count&priority=high`)
      .set(bearer(ada));
    assert.equal(assignees.body.total, 2);
    assert.equal(assignees.body.distribution[ada.userId][0].count, 2);
    assert.equal(assignees.body.distribution[max.userId][0].count, 1);
    assert.deepEqual(Object.keys(assignees.body.extras.assignee_details[0]).sort(), [
      'assignees__avatar_url',
      'assignees__display_name',
      'assignees__first_name',
      'assignees__id',
      'assignees__last_name',
    ]);
  });

  it('extras: the x axis from the chart’s own values, a segment’s from the scope (the same details)', async () => {
    const byX = await t.api.get(`${api()}/analytics/?x_axis=labels__id&y_axis=issue_count`).set(bearer(ada));
    const bySegment = await t.api
      .get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count&segment=labels__id`)
      .set(bearer(ada));
    assert.equal(bySegment.status, 200, JSON.stringify(bySegment.body));
    assert.equal(byX.body.extras.label_details.length, 2);
    assert.deepEqual(byX.body.extras.label_details, bySegment.body.extras.label_details);
    assert.deepEqual(bySegment.body.extras.state_details, {});
    const states = await t.api.get(`${api()}/analytics/?x_axis=state_id&y_axis=issue_count`).set(bearer(ada));
    const named = (states.body.extras.state_details as Row[]).map((r) => r.state_id);
    assert.deepEqual([...named].sort(), Object.keys(states.body.distribution).sort());
    assert.equal(states.body.total, 5);
  });

  it('sums estimates (none here: null)', async () => {
    const res = await t.api.get(`${api()}/analytics/?x_axis=state__group&y_axis=estimate`).set(bearer(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.distribution.completed, [{ dimension: 'completed', estimate: null }]);
  });

  it('answers Plane’s 400s for bad axes and segments', async () => {
    for (const q of ['', 'x_axis=priority', 'x_axis=nope&y_axis=issue_count', 'x_axis=priority&y_axis=points']) {
      const res = await t.api.get(`${api()}/analytics/?${q}`).set(bearer(ada));
      const body = assertError(res, 400, 'ANALYTICS_AXIS_INVALID');
      assert.equal(body.detail, 'x-axis and y-axis dimensions are required and the values should be valid');
    }
    for (const s of ['priority', 'nope']) {
      const res = await t.api
        .get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count&segment=${s}`)
        .set(bearer(ada));
      assertError(res, 400, 'ANALYTICS_SEGMENT_INVALID');
    }
    const bad = await t.api.get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count&state=nope`).set(bearer(ada));
    assertError(bad, 400, 'INVALID_QUERY_PARAMETER');
  });

  it('roles: Guests may not chart (403), non-members get 404', async () => {
    assertError(
      await t.api.get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count`).set(bearer(gus)),
      403,
      'PERMISSION_DENIED',
    );
    const res = await t.api.get(`${api()}/analytics/?x_axis=priority&y_axis=issue_count`).set(bearer(out));
    assert.equal(res.status, 404);
    // a Guest may read the overview and project stats (Plane: ADMIN, MEMBER, GUEST)
    assert.equal((await t.api.get(`${api()}/default-analytics/`).set(bearer(gus))).status, 200);
    assert.equal((await t.api.get(`${api()}/project-stats/`).set(bearer(gus))).status, 200);
  });

  it('default-analytics: totals, state groups, completions per month, top users', async () => {
    const res = await t.api.get(`${api()}/default-analytics/`).set(bearer(ada));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const b = res.body;
    assert.equal(b.total_issues, 5);
    assert.equal(b.open_issues, 3);
    const groups = Object.fromEntries((b.total_issues_classified as Row[]).map((r) => [r.state_group, r.state_count]));
    assert.equal(groups.completed, 2);
    assert.equal(groups.started, 1);
    assert.deepEqual(b.issue_completed_month_wise, [{ month: 2, count: 2 }]);
    assert.equal(b.most_issue_created_user[0].created_by__id, ada.userId);
    assert.equal(b.most_issue_created_user[0].count, 5);
    const closed = Object.fromEntries((b.most_issue_closed_user as Row[]).map((r) => [r.assignees__id, r.count]));
    assert.deepEqual(closed, { [ada.userId]: 1, [max.userId]: 1 });
    // pending: b (Ada, Max), c (nobody), secret (nobody)
    const pending = Object.fromEntries((b.pending_issue_user as Row[]).map((r) => [String(r.assignees__id), r.count]));
    assert.deepEqual(pending, { null: 2, [ada.userId]: 1, [max.userId]: 1 });
    assert.deepEqual(Object.keys(b).sort(), [
      'issue_completed_month_wise',
      'most_issue_closed_user',
      'most_issue_created_user',
      'open_estimate_sum',
      'open_issues',
      'open_issues_classified',
      'pending_issue_user',
      'total_estimate_sum',
      'total_issues',
      'total_issues_classified',
    ]);
    const filtered = await t.api.get(`${api()}/default-analytics/?project=${secretProjectId}`).set(bearer(ada));
    assert.equal(filtered.body.total_issues, 1);
  });

  it('default-analytics from the tallies is the counted pass’s answer (months, other years, points, a Guest)', async () => {
    // `cycle=None` keeps every work item here (none is in a cycle) but is no tally key: the counted pass
    const both = async (who: SignedUp, query = '') => {
      const join = query ? '&' : '?';
      const [tallied, counted] = await Promise.all([
        t.api.get(`${api()}/default-analytics/${query}`).set(bearer(who)),
        t.api.get(`${api()}/default-analytics/${query}${join}cycle=None`).set(bearer(who)),
      ]);
      assert.equal(tallied.status, 200, JSON.stringify(tallied.body));
      assert.equal(tallied.text, counted.text, `${who.email} ${query}`);
      return tallied.body as Record<string, unknown>;
    };
    const year = new Date().getUTCFullYear();
    const rows = await t.sql<{ id: string; name: string }>('SELECT id, name FROM issues WHERE workspace_id = $1', [
      ws.id,
    ]);
    const id = (name: string) => rows.find((r) => r.name === name)!.id;
    const saved = await t.sql('SELECT id, completed_at, point FROM issues WHERE workspace_id = $1', [ws.id]);
    try {
      // d completed last year (not a month of this one), c completed in November (still in backlog)
      await t.sql('UPDATE issues SET completed_at = $2 WHERE id = $1', [id('d'), `${year - 1}-07-01T00:00:00Z`]);
      await t.sql('UPDATE issues SET completed_at = $2 WHERE id = $1', [id('c'), `${year}-11-30T23:59:59Z`]);
      await t.sql('UPDATE issues SET point = $2 WHERE id = $1', [id('b'), 3]);
      await t.sql('UPDATE issues SET point = $2 WHERE id = $1', [id('a'), 5]);
      const b = await both(ada);
      assert.deepEqual(b.issue_completed_month_wise, [
        { month: 2, count: 1 },
        { month: 11, count: 1 },
      ]);
      assert.equal(b.total_estimate_sum, 8);
      assert.equal(b.open_estimate_sum, 3);
      assert.equal(b.total_issues, 5);
      await both(max);
      await both(gus);
      await both(ada, `?project=${projectId}`);
      await both(ada, '?priority=high,urgent');
    } finally {
      for (const r of saved)
        await t.sql('UPDATE issues SET completed_at = $2, point = $3 WHERE id = $1', [r.id, r.completed_at, r.point]);
    }
  });

  it('project-stats: counts per project, fields and project_ids', async () => {
    const res = await t.api.get(`${api()}/project-stats/`).set(bearer(ada));
    assert.equal(res.status, 200);
    const mine = (res.body as Row[]).find((p) => p.id === projectId)!;
    assert.deepEqual(mine, {
      id: projectId,
      total_issues: 4,
      completed_issues: 2,
      total_members: 2,
      total_cycles: 0,
      total_modules: 0,
    });
    const some = await t.api
      .get(`${api()}/project-stats/?fields=total_issues,nope&project_ids=${secretProjectId}`)
      .set(bearer(ada));
    assert.deepEqual(some.body, [{ id: secretProjectId, total_issues: 1 }]);
    // Max sees only his project (the other is secret, not public... unless public)
    const maxes = (await t.api.get(`${api()}/project-stats/`).set(bearer(max))).body as Row[];
    assert.ok(maxes.some((p) => p.id === projectId));
    assertError(
      await t.api.get(`${api()}/project-stats/?project_ids=nope`).set(bearer(ada)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('saved charts: create, list, read, chart, update, delete; foreign ids 404', async () => {
    const created = await t.api
      .post(`${api()}/analytic-view/`)
      .set(bearer(max))
      .send({ name: ' Priorities ', query_dict: { x_axis: 'priority', y_axis: 'issue_count', priority: ['high'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.name, 'Priorities');
    assert.deepEqual(created.body.query, { priority__in: ['high'] });
    assert.deepEqual(Object.keys(created.body).sort(), [
      'created_at',
      'created_by',
      'deleted_at',
      'description',
      'id',
      'name',
      'query',
      'query_dict',
      'updated_at',
      'updated_by',
      'workspace',
    ]);
    const id = created.body.id as string;
    assert.equal((await t.api.get(`${api()}/analytic-view/`).set(bearer(ada))).body.length, 1);
    assert.equal((await t.api.get(`${api()}/analytic-view/${id}/`).set(bearer(ada))).body.id, id);
    const chart = await t.api.get(`${api()}/saved-analytic-view/${id}/?segment=state__group`).set(bearer(ada));
    assert.equal(chart.status, 200, JSON.stringify(chart.body));
    assert.equal(chart.body.total, 2);
    assert.deepEqual(Object.keys(chart.body.distribution), ['high']);
    const patched = await t.api.patch(`${api()}/analytic-view/${id}/`).set(bearer(ada)).send({ description: 'x' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.description, 'x');
    assertError(await t.api.post(`${api()}/analytic-view/`).set(bearer(ada)).send({}), 422, 'VALIDATION_ERROR');
    assertError(
      await t.api
        .post(`${api()}/analytic-view/`)
        .set(bearer(ada))
        .send({ name: 'x', query_dict: { priority: ['nope'] } }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await t.api.get(`${api()}/analytic-view/`).set(bearer(gus)), 403, 'PERMISSION_DENIED');
    // another workspace's id
    assertError(
      await t.api.get(`/api/workspaces/${other.slug}/analytic-view/${id}/`).set(bearer(out)),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/workspaces/${other.slug}/saved-analytic-view/${id}/`).set(bearer(out)),
      404,
      'NOT_FOUND',
    );
    assert.equal((await t.api.delete(`${api()}/analytic-view/${id}/`).set(bearer(ada))).status, 204);
    assertError(await t.api.get(`${api()}/analytic-view/${id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
  });

  it('export-analytics: Plane’s message (the mail goes to the log without SMTP outside production); 400s', async () => {
    const res = await t.api
      .post(`${api()}/export-analytics/`)
      .set(bearer(max))
      .send({ x_axis: 'estimate_point', y_axis: 'issue_count', segment: 'priority', project: [projectId] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.message, /^Once the export is ready it will be emailed to you at /);
    assertError(
      await t.api.post(`${api()}/export-analytics/`).set(bearer(max)).send({ x_axis: 'priority' }),
      400,
      'ANALYTICS_AXIS_INVALID',
    );
    assertError(
      await t.api
        .post(`${api()}/export-analytics/`)
        .set(bearer(max))
        .send({ x_axis: 'priority', y_axis: 'issue_count', segment: 'priority' }),
      400,
      'ANALYTICS_SEGMENT_INVALID',
    );
    assertError(
      await t.api
        .post(`${api()}/export-analytics/`)
        .set(bearer(gus))
        .send({ x_axis: 'priority', y_axis: 'issue_count' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('home graphs: dashboard, activity graph, completed graph of the caller’s work', async () => {
    const dash = await t.api.get(`/api/users/me/workspaces/${ws.slug}/dashboard/?month=2`).set(bearer(max));
    assert.equal(dash.status, 200, JSON.stringify(dash.body));
    assert.deepEqual(Object.keys(dash.body).sort(), [
      'assigned_issues_count',
      'completed_issues',
      'completed_issues_count',
      'issue_activities',
      'issues_due_week_count',
      'overdue_issues',
      'pending_issues_count',
      'state_distribution',
      'upcoming_issues',
    ]);
    assert.equal(dash.body.assigned_issues_count, 2); // b, d
    assert.equal(dash.body.pending_issues_count, 1); // b
    assert.equal(dash.body.completed_issues_count, 1); // d
    assert.deepEqual(dash.body.completed_issues, [{ week_in_month: 2, completed_count: 1 }]); // Feb 10
    assert.deepEqual(dash.body.state_distribution, [
      { state_group: 'completed', state_count: 1 },
      { state_group: 'started', state_count: 1 },
    ]);
    // b is open: overdue once its due date is past, upcoming once its start date is ahead; d (completed) neither
    const [b] = await t.sql<{ id: string; name: string; project_id: string; target_date: string | null }>(
      `SELECT i.id::text AS id, i.name, i.project_id::text AS project_id, i.target_date::text AS target_date
       FROM issues i JOIN issue_assignees ia ON ia.issue_id = i.id AND ia.assignee_id = $1
       WHERE i.workspace_id = $2 AND i.completed_at IS NULL`,
      [max.userId, ws.id],
    );
    await t.sql(`UPDATE issues SET target_date = DATE '2020-01-02', start_date = DATE '2099-01-03' WHERE id = $1`, [
      b.id,
    ]);
    try {
      const due = await t.api.get(`/api/users/me/workspaces/${ws.slug}/dashboard/`).set(bearer(max));
      const row = { id: b.id, name: b.name, workspace__slug: ws.slug, project_id: b.project_id };
      assert.deepEqual(due.body.overdue_issues, [{ ...row, target_date: '2020-01-02' }]);
      assert.deepEqual(due.body.upcoming_issues, [{ ...row, start_date: '2099-01-03' }]);
    } finally {
      await t.sql(`UPDATE issues SET target_date = $2::date, start_date = NULL WHERE id = $1`, [b.id, b.target_date]);
    }
    const graph = await t.api
      .get(`/api/users/me/workspaces/${ws.slug}/issues-completed-graph/?month=2`)
      .set(bearer(ada));
    assert.equal(graph.status, 200);
    assert.equal(
      (graph.body as Row[]).reduce((n, r) => n + Number(r.completed_count), 0),
      1,
    );
    assert.deepEqual(Object.keys(graph.body[0]).sort(), ['completed_count', 'week']);
    const activity = await t.api.get(`/api/users/me/workspaces/${ws.slug}/activity-graph/`).set(bearer(ada));
    assert.equal(activity.status, 200);
    assert.ok((activity.body as Row[]).length >= 1);
    assert.deepEqual(Object.keys(activity.body[0]).sort(), ['activity_count', 'created_date']);
    assert.match(String(activity.body[0].created_date), /^\d{4}-\d{2}-\d{2}$/);
    assertError(
      await t.api.get(`/api/users/me/workspaces/${ws.slug}/dashboard/?month=13`).set(bearer(ada)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    assert.equal((await t.api.get(`/api/users/me/workspaces/${ws.slug}/dashboard/`).set(bearer(out))).status, 404);
  });
});

describe('App API: export-analytics through a real SMTP server', () => {
  let t: TestApp;
  let smtp: SmtpCapture;
  before(async () => {
    smtp = await startSmtpCapture();
    t = await startTestApp({ ...smtp.env });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails Plane’s CSV (state names, the total, one column per segment) to the caller', async () => {
    const ada = await signUp(t);
    const ws = await createWorkspace(t, ada.token);
    const project = await createAppProject(t, ada.token, ws.slug);
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const auth = { Authorization: `Bearer ${ada.token}` };
    const states = (await t.api.get(`${base}/states/`).set(auth)).body as Array<{
      id: string;
      group: string;
      name: string;
    }>;
    const backlog = states.find((s) => s.group === 'backlog')!;
    for (const priority of ['high', 'high', 'low'])
      assert.equal(
        (await t.api.post(`${base}/issues/`).set(auth).send({ name: 'x', priority, state_id: backlog.id })).status,
        201,
      );
    const res = await t.api
      .post(`/api/workspaces/${ws.slug}/export-analytics/`)
      .set(auth)
      .send({ x_axis: 'state_id', y_axis: 'issue_count', segment: 'priority' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.message, `Once the export is ready it will be emailed to you at ${ada.email}`);
    let mail: CapturedMail | undefined;
    for (let i = 0; i < 100 && !mail; i++) {
      mail = smtp.to(ada.email)[0];
      if (!mail) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(mail, 'no mail arrived');
    assert.equal(mail.subject, 'Your Export is ready');
    const part = /filename="?analytics\.csv"?[\s\S]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+?)\r\n(?:\r\n|--)/.exec(mail.raw);
    assert.ok(part, mail.raw.slice(0, 2000));
    const csv = Buffer.from(part[1].replace(/\r\n/g, ''), 'base64').toString('utf8');
    const lines = csv.trim().split('\r\n');
    assert.equal(lines[0].split(',')[0], '"X-Axis"');
    assert.deepEqual(lines[0].split(',').slice(1).sort(), ['"Issue Count"', '"high"', '"low"'].sort());
    assert.equal(lines.length, 2);
    assert.ok(lines[1].startsWith(`"${backlog.name}","3",`), lines[1]);
  });
});
