import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Plane's web app keeps a local copy of a project's work items and asks only for what changed
 * since its last sync: `v2/issues/?updated_at__gt=` (changed rows) and `deleted-issues/?updated_at__gt=`
 * (ids gone from the lists: deleted or archived). Every change that moves a work item in or out of
 * a list the app shows (cycle, module, labels, assignees, relations, archive, intake accept,
 * deletes) reaches that delta at once, through the App API and the v1 API alike. Runs on both engines.
 */
describe('App API: every list-moving change reaches the web app’s delta sync', () => {
  let t: TestApp;
  let admin: SignedUp;
  let key: string;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let states: Record<string, string>;
  const app = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const v1 = () => `/api/v1/workspaces/${ws.slug}/projects/${project.id}`;
  const A = {
    get: (p: string) => t.api.get(app() + p).auth(admin.token, { type: 'bearer' }),
    post: (p: string, body?: object) =>
      t.api
        .post(app() + p)
        .auth(admin.token, { type: 'bearer' })
        .send(body ?? {}),
    patch: (p: string, body: object) =>
      t.api
        .patch(app() + p)
        .auth(admin.token, { type: 'bearer' })
        .send(body),
    delete: (p: string) => t.api.delete(app() + p).auth(admin.token, { type: 'bearer' }),
  };
  const V = {
    post: (p: string, body?: object) =>
      t.api
        .post(v1() + p)
        .set('X-API-Key', key)
        .send(body ?? {}),
    patch: (p: string, body: object) =>
      t.api
        .patch(v1() + p)
        .set('X-API-Key', key)
        .send(body),
    delete: (p: string) => t.api.delete(v1() + p).set('X-API-Key', key),
  };
  const ok = async (res: Promise<{ status: number; body: unknown }> | { status: number; body: unknown }) => {
    const r = await res;
    assert.ok(r.status >= 200 && r.status < 300, `${r.status} ${JSON.stringify(r.body)}`);
    return r as { status: number; body: Record<string, unknown> & { id: string } };
  };
  const item = async (name: string, extra: object = {}) => (await ok(A.post('/issues/', { name, ...extra }))).body.id;

  /** Runs `change` after a sync point and returns what the two delta calls answer for changes after it. */
  async function delta(change: () => Promise<unknown>): Promise<{ changed: string[]; gone: string[] }> {
    await new Promise((r) => setTimeout(r, 5));
    const since = encodeURIComponent(new Date().toISOString());
    await new Promise((r) => setTimeout(r, 5));
    await change();
    const changed = await A.get(`/v2/issues/?cursor=500:0:0&updated_at__gt=${since}`);
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const gone = await A.get(`/deleted-issues/?updated_at__gt=${since}`);
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    return { changed: changed.body.results.map((r: { id: string }) => r.id).sort(), gone: [...gone.body].sort() };
  }
  const only = (...ids: string[]) => ({ changed: [...ids].sort(), gone: [] });

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    key = await createApiKey(t, admin.token, ws.slug);
    project = await createAppProject(t, admin.token, ws.slug, { identifier: 'DELTA', name: 'Delta' });
    await t.sql('UPDATE projects SET intake_view = true, module_view = true, cycle_view = true WHERE id = $1', [
      project.id,
    ]);
    const rows = await t.sql<{ id: string; group: string }>('SELECT id, "group" FROM states WHERE project_id = $1', [
      project.id,
    ]);
    states = Object.fromEntries(rows.map((r) => [r.group, r.id]));
  });
  after(() => t.close());

  it('cycles: add, move, remove and transfer (App and v1), and a deleted cycle', async () => {
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const c1 = (await ok(A.post('/cycles/', { name: 'C1', start_date: day(-1), end_date: day(5) }))).body.id;
    const c2 = (await ok(A.post('/cycles/', { name: 'C2', start_date: day(6), end_date: day(9) }))).body.id;
    const a = await item('cycle a');
    const b = await item('cycle b');
    assert.deepEqual(await delta(() => ok(A.post(`/cycles/${c1}/cycle-issues/`, { issues: [a] }))), only(a));
    assert.deepEqual(await delta(() => ok(V.post(`/cycles/${c1}/cycle-issues/`, { issues: [b] }))), only(b));
    assert.deepEqual(await delta(() => ok(V.post(`/cycles/${c2}/cycle-issues/`, { issues: [a] }))), only(a));
    assert.deepEqual(await delta(() => ok(A.delete(`/cycles/${c2}/cycle-issues/${a}/`))), only(a));
    assert.deepEqual(await delta(() => ok(V.delete(`/cycles/${c1}/cycle-issues/${b}/`))), only(b));
    await ok(A.post(`/cycles/${c1}/cycle-issues/`, { issues: [a, b] }));
    // only the work items of a cycle that has ended are transferred
    await t.sql(`UPDATE cycles SET end_date = now() - interval '1 hour' WHERE id = $1`, [c1]);
    assert.deepEqual(await delta(() => ok(V.post(`/cycles/${c1}/transfer-issues/`, { new_cycle_id: c2 }))), only(a, b));
    assert.deepEqual(await delta(() => ok(A.delete(`/cycles/${c2}/`))), only(a, b));
  });

  it('modules: add and remove (App, v1, the work item’s own list), and a deleted module', async () => {
    const m1 = (await ok(A.post('/modules/', { name: 'M1' }))).body.id;
    const m2 = (await ok(V.post('/modules/', { name: 'M2' }))).body.id;
    const a = await item('module a');
    const b = await item('module b');
    assert.deepEqual(await delta(() => ok(A.post(`/modules/${m1}/issues/`, { issues: [a] }))), only(a));
    assert.deepEqual(await delta(() => ok(V.post(`/modules/${m1}/module-issues/`, { issues: [b] }))), only(b));
    assert.deepEqual(
      await delta(() => ok(A.post(`/issues/${a}/modules/`, { modules: [m2], removed_modules: [m1] }))),
      only(a),
    );
    assert.deepEqual(await delta(() => ok(A.delete(`/modules/${m1}/issues/${b}/`))), only(b));
    assert.deepEqual(await delta(() => ok(V.delete(`/modules/${m2}/module-issues/${a}/`))), only(a));
    await ok(A.post(`/modules/${m2}/issues/`, { issues: [a, b] }));
    assert.deepEqual(await delta(() => ok(V.delete(`/modules/${m2}/`))), only(a, b));
  });

  it('labels and assignees: set on the work item (App and v1), and a deleted label', async () => {
    const label = (await ok(A.post('/issue-labels/', { name: 'Bug', color: '#ff0000' }))).body.id;
    const a = await item('label a');
    const b = await item('label b');
    assert.deepEqual(await delta(() => ok(A.patch(`/issues/${a}/`, { label_ids: [label] }))), only(a));
    assert.deepEqual(await delta(() => ok(V.patch(`/work-items/${b}/`, { labels: [label] }))), only(b));
    assert.deepEqual(await delta(() => ok(V.delete(`/labels/${label}/`))), only(a, b));
    assert.deepEqual(await delta(() => ok(A.patch(`/issues/${a}/`, { assignee_ids: [admin.userId] }))), only(a));
    assert.deepEqual(await delta(() => ok(V.patch(`/work-items/${a}/`, { assignees: [] }))), only(a));
  });

  it('relations: both work items, when related and when unrelated (App and v1)', async () => {
    const a = await item('rel a');
    const b = await item('rel b');
    const c = await item('rel c');
    assert.deepEqual(
      await delta(() => ok(A.post(`/issues/${a}/issue-relation/`, { relation_type: 'blocked_by', issues: [b] }))),
      only(a, b),
    );
    assert.deepEqual(await delta(() => ok(A.post(`/issues/${a}/remove-relation/`, { related_issue: b }))), only(a, b));
    assert.deepEqual(
      await delta(() => ok(V.post(`/work-items/${c}/relations/`, { relation_type: 'relates_to', issues: [a] }))),
      only(a, c),
    );
    assert.deepEqual(
      await delta(() => ok(V.post(`/work-items/${c}/relations/remove/`, { related_issue: a }))),
      only(a, c),
    );
  });

  it('archive and restore, intake accept, delete', async () => {
    const done = await item('archive me', { state_id: states.completed });
    assert.deepEqual(await delta(() => ok(A.post(`/issues/${done}/archive/`))), { changed: [], gone: [done] });
    assert.deepEqual(await delta(() => ok(A.delete(`/issues/${done}/archive/`))), only(done));

    await ok(A.post('/intake-issues/', { issue: { name: 'From intake' } }));
    const [{ id: pending }] = await t.sql<{ id: string }>(
      `SELECT issue_id AS id FROM intake_issues WHERE project_id = $1 AND status = -2`,
      [project.id],
    );
    assert.deepEqual(await delta(() => ok(A.patch(`/intake-issues/${pending}/`, { status: 1 }))), only(pending));
    await ok(V.post('/intake-issues/', { issue: { name: 'From intake by v1' } }));
    const [{ id: pending2 }] = await t.sql<{ id: string }>(
      `SELECT issue_id AS id FROM intake_issues WHERE project_id = $1 AND status = -2`,
      [project.id],
    );
    assert.deepEqual(await delta(() => ok(V.patch(`/intake-issues/${pending2}/`, { status: 1 }))), only(pending2));

    const doomed = await item('delete me');
    assert.deepEqual(await delta(() => ok(V.delete(`/work-items/${doomed}/`))), { changed: [], gone: [doomed] });
  });
});
