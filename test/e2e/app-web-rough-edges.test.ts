import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Two things Plane's web app met: reactions on an intake item waiting for triage (its intake page
 * shows them, Plane's `IssueReactionViewSet` does not filter by intake status), and the burndown
 * data its chart draws without NaN (`ProgressChart`: every day a number, the days from
 * `start_date` to `end_date` as the web app reads them). Runs on both engines.
 */
describe('App API: intake reactions and the burndown the web app draws', () => {
  let t: TestApp;
  let ada: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  const base = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const as = (path: string) => ({
    get: () => t.api.get(base() + path).auth(ada.token, { type: 'bearer' }),
    post: (body: object) =>
      t.api
        .post(base() + path)
        .auth(ada.token, { type: 'bearer' })
        .send(body),
    delete: () => t.api.delete(base() + path).auth(ada.token, { type: 'bearer' }),
  });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    project = await createAppProject(t, ada.token, ws.slug, { identifier: 'EDGE', name: 'Edges' });
    await t.sql('UPDATE projects SET intake_view = true WHERE id = $1', [project.id]);
  });
  after(() => t.close());

  it('a pending intake item takes, lists and drops reactions; an archived item still answers 404', async () => {
    const submitted = await as('/intake-issues/').post({ issue: { name: 'Please look' } });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    const [{ id }] = await t.sql<{ id: string }>(
      `SELECT i.id FROM issues i JOIN intake_issues ii ON ii.issue_id = i.id
       WHERE i.project_id = $1 AND i.name = 'Please look' AND ii.status = -2`,
      [project.id],
    );
    const added = await as(`/issues/${id}/reactions/`).post({ reaction: '128077' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(added.body.issue, id);
    const listed = await as(`/issues/${id}/reactions/`).get();
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const rows = listed.body.results ?? listed.body;
    assert.deepEqual(
      rows.map((r: { reaction: string }) => r.reaction),
      ['128077'],
    );
    assert.equal((await as(`/issues/${id}/reactions/128077/`).delete()).status, 204);
    assert.deepEqual((await as(`/issues/${id}/reactions/`).get()).body.results ?? [], []);

    // archived items keep refusing reactions, as comments
    const [done] = await t.sql<{ id: string }>(
      `SELECT id FROM states WHERE project_id = $1 AND "group" = 'completed' LIMIT 1`,
      [project.id],
    );
    const item = await as('/issues/').post({ name: 'Finished', state_id: done.id });
    assert.equal((await as(`/issues/${item.body.id}/archive/`).post({})).status, 200);
    assertError(await as(`/issues/${item.body.id}/reactions/`).post({ reaction: '128077' }), 404, 'NOT_FOUND');
  });

  it('the cycle burndown: one number for every day the web app draws, from start_date to end_date', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const cycle = await as('/cycles/').post({ name: 'Now', start_date: day(-2), end_date: day(3) });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const items: string[] = [];
    for (const name of ['One', 'Two', 'Three']) items.push((await as('/issues/').post({ name })).body.id);
    const added = await as(`/cycles/${cycle.body.id}/cycle-issues/`).post({ issues: items });
    assert.ok(added.status < 300, JSON.stringify(added.body));
    await t.sql(`UPDATE issues SET completed_at = now() - interval '1 day' WHERE id = $1`, [items[0]]);

    const detail = await as(`/cycles/${cycle.body.id}/`).get();
    // the web app's ticks: every day from the first ten characters of start_date to those of end_date
    const first = String(detail.body.start_date).slice(0, 10);
    const last = String(detail.body.end_date).slice(0, 10);
    const ticks: string[] = [];
    for (let d = Date.parse(`${first}T00:00:00Z`); d <= Date.parse(`${last}T00:00:00Z`); d += 86_400_000)
      ticks.push(new Date(d).toISOString().slice(0, 10));
    for (const type of ['issues', 'points']) {
      const res = await as(`/cycles/${cycle.body.id}/analytics/?type=${type}`).get();
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (type === 'points') {
        assert.deepEqual(res.body.completion_chart, {}, 'no points estimate: no chart');
        continue;
      }
      const chart = res.body.completion_chart as Record<string, unknown>;
      assert.deepEqual(Object.keys(chart), ticks);
      for (const [key, value] of Object.entries(chart))
        assert.ok(typeof value === 'number' && Number.isFinite(value), `${key}: ${String(value)}`);
      assert.deepEqual(
        [chart[day(-2)], chart[day(-1)], chart[day(0)], chart[day(3)]],
        [3, 2, 2, 2],
        'later days keep what is pending today',
      );
    }
  });

  it('in any time zone, the burndown’s days are the days the web app reads from start_date and end_date', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const timezone of ['Asia/Kolkata', 'America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
      const cycle = await as('/cycles/').post({
        name: `In ${timezone}`,
        start_date: day(-2),
        end_date: day(2),
        timezone,
      });
      assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
      const detail = await as(`/cycles/${cycle.body.id}/`).get();
      assert.equal(detail.status, 200);
      // as the user entered them, in the cycle's time zone
      assert.equal(String(detail.body.start_date).slice(0, 10), day(-2), timezone);
      assert.equal(String(detail.body.end_date).slice(0, 10), day(2), timezone);
      assert.equal(Date.parse(detail.body.start_date), Date.parse(cycle.body.start_date), 'the same instant');
      const res = await as(`/cycles/${cycle.body.id}/analytics/?type=issues`).get();
      assert.deepEqual(Object.keys(res.body.completion_chart), [day(-2), day(-1), day(0), day(1), day(2)], timezone);
      const listed = await as('/cycles/').get();
      const row = (listed.body.results ?? listed.body).find((c: { id: string }) => c.id === cycle.body.id);
      assert.equal(row.start_date, detail.body.start_date, 'the list writes it the same');
    }
  });
});
