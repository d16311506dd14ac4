import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Plane's list filters by name, parent, estimate point, the times of creation, change and
 * completion, and `start_target_date` (Plane 0.25.3 `plane/utils/issue_filters.py`) on the App
 * API's lists: a project's list, its groups, the workspace's list and the analytics chart. Each
 * filter is checked against the work items that should match, and bad values are 400. Runs on both
 * engines.
 */
describe('App API: Plane’s name, parent, estimate point and time filters', () => {
  let t: TestApp;
  let ada: SignedUp;
  let ws: { id: string; slug: string };
  let base: string;
  const ids: Record<string, string> = {};
  let point2: string;
  let point3: string;

  const bearer = () => ({ authorization: `Bearer ${ada.token}` });
  const list = async (q: string) => {
    const res = await t.api.get(`${base}/issues/?${q}`).set(bearer());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.results as Array<{ id: string }>).map((r) => r.id).sort();
  };
  const expect = (...names: string[]) => names.map((n) => ids[n]).sort();

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    const project = await createAppProject(t, ada.token, ws.slug);
    base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const est = await t.api.post(`${base}/estimates/`).set(bearer()).send({ name: 'Points', type: 'points' });
    assert.equal(est.status, 201, JSON.stringify(est.body));
    const pts = await t.api
      .post(`${base}/estimates/${est.body.id}/estimate-points/`)
      .set(bearer())
      .send([{ value: '2' }, { value: '3' }]);
    assert.equal(pts.status, 201, JSON.stringify(pts.body));
    const point = (v: string) => (pts.body as Array<{ id: string; value: string }>).find((p) => p.value === v)!.id;
    [point2, point3] = [point('2'), point('3')];
    assert.equal((await t.api.patch(`${base}/`).set(bearer()).send({ estimate: est.body.id })).status, 200);
    const states = (await t.api.get(`${base}/states/`).set(bearer())).body as Array<{ id: string; group: string }>;
    const done = states.find((s) => s.group === 'completed')!.id;

    const item = async (key: string, body: Record<string, unknown>) => {
      const res = await t.api.post(`${base}/issues/`).set(bearer()).send(body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[key] = res.body.id as string;
    };
    await item('percent', { name: 'Alpha 100% done', estimate_point: point2, start_date: '2030-01-01' });
    await item('thousand', { name: 'alphabet 1000 things', estimate_point: point3, target_date: '2030-02-01' });
    await item('underscore', { name: 'snake a_b', start_date: '2030-01-01', target_date: '2030-02-01' });
    await item('letter', { name: 'snake axb', state_id: done });
    await item('child', { name: 'Child of percent', parent_id: ids.percent });
    await item('grandchild', { name: 'Child of thousand', parent_id: ids.thousand });
    // fixed times, set after every API write (each write moves updated_at)
    const at = async (key: string, created: string, updated: string, completed: string | null) =>
      t.sql(`UPDATE issues SET created_at = $2, updated_at = $3, completed_at = $4 WHERE id = $1`, [
        ids[key],
        created,
        updated,
        completed,
      ]);
    await at('percent', '2024-03-10T23:30:00Z', '2024-04-01T12:00:00Z', null);
    await at('thousand', '2024-03-11T00:30:00Z', '2024-04-02T00:00:00Z', null);
    await at('underscore', '2024-03-12T12:00:00Z', '2024-04-02T23:59:59Z', null);
    await at('letter', '2024-03-13T12:00:00Z', '2024-04-03T00:00:00Z', '2024-05-01T08:00:00Z');
    await at('child', '2024-03-14T12:00:00Z', '2024-04-04T00:00:00Z', null);
    await at('grandchild', '2024-03-15T12:00:00Z', '2024-04-05T00:00:00Z', null);
  });

  after(async () => {
    await t.close();
  });

  it('name: the text anywhere in the name, in any case; % and _ taken literally', async () => {
    assert.deepEqual(await list('name=ALPHA'), expect('percent', 'thousand'));
    assert.deepEqual(await list(`name=${encodeURIComponent('100%')}`), expect('percent'));
    assert.deepEqual(await list('name=a_b'), expect('underscore'));
    assert.deepEqual(await list(`name=${encodeURIComponent('\\')}`), []);
    // an empty name filters nothing (Plane: `name != ""`)
    assert.equal((await list('name=')).length, 6);
  });

  it('parent: the children of these parents; None: the work items without one; both: either', async () => {
    assert.deepEqual(await list(`parent=${ids.percent}`), expect('child'));
    assert.deepEqual(await list(`parent=${ids.percent},${ids.thousand.toUpperCase()}`), expect('child', 'grandchild'));
    assert.deepEqual(await list('parent=None'), expect('percent', 'thousand', 'underscore', 'letter'));
    assert.deepEqual(
      await list(`parent=None,${ids.thousand}`),
      expect('percent', 'thousand', 'underscore', 'letter', 'grandchild'),
    );
    assertError(await t.api.get(`${base}/issues/?parent=nope`).set(bearer()), 400, 'INVALID_QUERY_PARAMETER');
  });

  it('estimate_point: work items with one of these points', async () => {
    assert.deepEqual(await list(`estimate_point=${point2}`), expect('percent'));
    assert.deepEqual(await list(`estimate_point=${point2},${point3}`), expect('percent', 'thousand'));
    assertError(await t.api.get(`${base}/issues/?estimate_point=2`).set(bearer()), 400, 'INVALID_QUERY_PARAMETER');
  });

  it('created_at, updated_at, completed_at: the UTC day of the instant, after, before or on', async () => {
    assert.deepEqual(await list('created_at=2024-03-10'), expect('percent'));
    assert.deepEqual(await list('created_at=2024-03-11'), expect('thousand'));
    assert.deepEqual(
      await list('created_at=2024-03-11;after,2024-03-13;before'),
      expect('thousand', 'underscore', 'letter'),
    );
    assert.deepEqual(await list('created_at=2024-03-10;before'), expect('percent'));
    // updated_at is the work item's own (Plane 0.25.3 compares created_at here)
    assert.deepEqual(await list('updated_at=2024-04-02'), expect('thousand', 'underscore'));
    assert.deepEqual(await list('updated_at=2024-04-04;after'), expect('child', 'grandchild'));
    assert.deepEqual(await list('completed_at=2024-05-01'), expect('letter'));
    assert.deepEqual(await list('completed_at=2024-04-30;after'), expect('letter'));
    assert.deepEqual(await list('completed_at=2024-04-30;before'), []);
    // a relative date: created more than a week ago
    assert.equal((await list('created_at=1_weeks;before;ago')).length, 6);
    assertError(
      await t.api.get(`${base}/issues/?completed_at=yesterday`).set(bearer()),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('start_target_date=true: both dates set; false filters nothing', async () => {
    assert.deepEqual(await list('start_target_date=true'), expect('underscore'));
    assert.equal((await list('start_target_date=false')).length, 6);
    assertError(
      await t.api.get(`${base}/issues/?start_target_date=maybe`).set(bearer()),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('the same filters on the groups, the workspace’s list, its totals and the analytics chart', async () => {
    const grouped = await t.api.get(`${base}/issues/?group_by=priority&name=alpha`).set(bearer());
    assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
    const groups = grouped.body.results as Record<string, { results: Array<{ id: string }>; total_results: number }>;
    const inGroups = Object.values(groups).flatMap((g) => g.results.map((r) => r.id));
    assert.deepEqual(inGroups.sort(), expect('percent', 'thousand'));
    assert.equal(
      Object.values(groups).reduce((n, g) => n + g.total_results, 0),
      2,
    );

    const wide = await t.api
      .get(`/api/workspaces/${ws.slug}/issues/?parent=None&created_at=2024-03-11;after&per_page=10&cursor=10:0:0`)
      .set(bearer());
    assert.equal(wide.status, 200, JSON.stringify(wide.body));
    assert.deepEqual(
      (wide.body.results as Array<{ id: string }>).map((r) => r.id).sort(),
      expect('thousand', 'underscore', 'letter'),
    );
    assert.equal(wide.body.total_count, 3);

    const chart = await t.api
      .get(
        `/api/workspaces/${ws.slug}/analytics/?x_axis=priority&y_axis=issue_count&estimate_point=${point2},${point3}`,
      )
      .set(bearer());
    assert.equal(chart.status, 200, JSON.stringify(chart.body));
    assert.equal(chart.body.total, 2);
    const unfiltered = await t.api
      .get(`/api/workspaces/${ws.slug}/analytics/?x_axis=priority&y_axis=issue_count`)
      .set(bearer());
    assert.equal(unfiltered.body.total, 6);
  });

  // last: its changes move the work items' updated_at
  it('a cycle’s and a module’s work items are the project list’s: filters, order, groups, App values', async () => {
    const cycle = await t.api.post(`${base}/cycles/`).set(bearer()).send({ name: 'Now' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const cycleItems = `${base}/cycles/${cycle.body.id}/cycle-issues/`;
    const added = await t.api
      .post(cycleItems)
      .set(bearer())
      .send({ issues: [ids.percent, ids.thousand, ids.letter] });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    for (const [key, priority] of [
      ['percent', 'urgent'],
      ['thousand', 'high'],
    ]) {
      const res = await t.api.patch(`${base}/issues/${ids[key]}/`).set(bearer()).send({ priority });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    // the web app's active cycle: its urgent and high priority work items, App values
    const active = await t.api.get(`${cycleItems}?priority=urgent,high&cursor=10:0:0&per_page=10`).set(bearer());
    assert.equal(active.status, 200, JSON.stringify(active.body));
    const rows = active.body.results as Array<{ id: string; state_id: string; cycle_id: string; priority: string }>;
    assert.deepEqual(rows.map((r) => r.id).sort(), expect('percent', 'thousand'));
    assert.ok(rows.every((r) => r.cycle_id === cycle.body.id && typeof r.state_id === 'string'));
    assert.equal(active.body.total_count, 2);
    // newest first by default (Plane's `CycleIssueViewSet`), groups
    const all = await t.api.get(cycleItems).set(bearer());
    assert.deepEqual(
      (all.body.results as Array<{ id: string }>).map((r) => r.id),
      [ids.letter, ids.thousand, ids.percent],
    );
    const grouped = await t.api.get(`${cycleItems}?group_by=priority`).set(bearer());
    assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
    assert.deepEqual(
      grouped.body.results.urgent.results.map((r: { id: string }) => r.id),
      [ids.percent],
    );
    assertError(await t.api.get(`${base}/cycles/${ids.percent}/cycle-issues/`).set(bearer()), 404, 'NOT_FOUND');

    const mod = await t.api.post(`${base}/modules/`).set(bearer()).send({ name: 'Core' });
    assert.equal(mod.status, 201, JSON.stringify(mod.body));
    const moduleItems = `${base}/modules/${mod.body.id}/issues/`;
    const put = await t.api
      .post(moduleItems)
      .set(bearer())
      .send({ issues: [ids.letter, ids.percent] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    // oldest first by default (Plane's `ModuleIssueViewSet`)
    const inModule = await t.api.get(moduleItems).set(bearer());
    assert.deepEqual(
      (inModule.body.results as Array<{ id: string; module_ids: string[] }>).map((r) => [r.id, r.module_ids]),
      [
        [ids.percent, [mod.body.id]],
        [ids.letter, [mod.body.id]],
      ],
    );
    const snakes = await t.api.get(`${moduleItems}?name=snake`).set(bearer());
    assert.deepEqual(
      (snakes.body.results as Array<{ id: string }>).map((r) => r.id),
      [ids.letter],
    );
  });
});
