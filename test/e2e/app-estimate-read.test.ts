import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The App API's estimate reads carry the estimate's points, as Plane's `BulkEstimatePointEndpoint`
 * answers them (`EstimateReadSerializer`): the web app offers a work item only the points it finds in
 * `GET …/estimates/`. Runs on both engines.
 */
describe('App API: estimates are read with their points', () => {
  let t: TestApp;
  let ana: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  const base = () => `/api/workspaces/${ws.slug}/projects/${project.id}/estimates`;

  before(async () => {
    t = await startTestApp();
    ana = await signUp(t);
    ws = await createWorkspace(t, ana.token);
    project = await createAppProject(t, ana.token, ws.slug, { identifier: 'EST', name: 'Estimates' });
  });
  after(() => t.close());

  it('lists and retrieves the estimate with its points by key', async () => {
    assert.deepEqual((await t.api.get(`${base()}/`).auth(ana.token, { type: 'bearer' })).body, []);
    const created = await t.api
      .post(`${base()}/`)
      .auth(ana.token, { type: 'bearer' })
      .send({
        estimate: { name: 'Points', type: 'points', last_used: true },
        estimate_points: [
          { key: 2, value: '3' },
          { key: 1, value: '1' },
        ],
      });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const list = await t.api.get(`${base()}/`).auth(ana.token, { type: 'bearer' });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    const [estimate] = list.body;
    assert.equal(estimate.id, created.body.id);
    assert.equal(estimate.last_used, true);
    assert.deepEqual(
      estimate.points.map((p: { key: number; value: string; estimate: string }) => [p.key, p.value, p.estimate]),
      [
        [1, '1', estimate.id],
        [2, '3', estimate.id],
      ],
    );
    const one = await t.api.get(`${base()}/${estimate.id}/`).auth(ana.token, { type: 'bearer' });
    assert.equal(one.status, 200);
    assert.deepEqual(
      one.body.points.map((p: { id: string }) => p.id),
      estimate.points.map((p: { id: string }) => p.id),
    );
    // a point removed is gone from the reads
    const gone = await t.api
      .delete(`${base()}/${estimate.id}/estimate-points/${estimate.points[0].id}/`)
      .auth(ana.token, { type: 'bearer' });
    assert.ok(gone.status === 204 || gone.status === 200, `${gone.status} ${JSON.stringify(gone.body)}`);
    const after = await t.api.get(`${base()}/`).auth(ana.token, { type: 'bearer' });
    assert.deepEqual(
      after.body[0].points.map((p: { key: number }) => p.key),
      [2],
    );
  });

  it('keeps another project’s estimate a 404', async () => {
    const other = await createAppProject(t, ana.token, ws.slug, { identifier: 'OTH', name: 'Other' });
    const list = await t.api.get(`${base()}/`).auth(ana.token, { type: 'bearer' });
    const res = await t.api
      .get(`/api/workspaces/${ws.slug}/projects/${other.id}/estimates/${list.body[0].id}/`)
      .auth(ana.token, { type: 'bearer' });
    assert.equal(res.status, 404);
  });
});
