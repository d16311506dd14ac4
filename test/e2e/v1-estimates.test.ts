import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  setWorkspaceRole,
  signUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: estimates and estimate points', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  let estimate: { id: string };
  let points: Array<{ id: string; key: number; value: string }>;
  const p = (path: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'EST', name: 'Estimates' });
  });
  after(() => t.close());

  it('a project without an estimate: GET/PATCH/DELETE are 404', async () => {
    assertError(await t.api.get(p('estimates/')).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.patch(p('estimates/')).set('X-API-Key', key).send({ name: 'x' }), 404, 'NOT_FOUND');
    assertError(await t.api.delete(p('estimates/')).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('create 201 (one per project: a second is 409 ESTIMATE_EXISTS), retrieve, update; type is fixed', async () => {
    const res = await t.api
      .post(p('estimates/'))
      .set('X-API-Key', key)
      .send({ name: ' Story points ', type: 'points', description: 'fib' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Story points');
    assert.equal(res.body.type, 'points');
    assert.equal(res.body.project, project.id);
    assert.equal(res.body.workspace, ws.id);
    assert.equal(res.body.last_used, false);
    estimate = res.body;
    const dup = await t.api.post(p('estimates/')).set('X-API-Key', key).send({ name: 'Another' });
    assertError(dup, 409, 'ESTIMATE_EXISTS');
    assert.equal(dup.body.id, estimate.id);
    assert.equal((await t.api.get(p('estimates/')).set('X-API-Key', key)).body.id, estimate.id);
    const upd = await t.api
      .patch(p('estimates/'))
      .set('X-API-Key', key)
      .send({ name: 'Points', external_id: 'e1', external_source: 'jira' });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.name, 'Points');
    assert.equal(upd.body.external_id, 'e1');
    assertError(
      await t.api.patch(p('estimates/')).set('X-API-Key', key).send({ type: 'time' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(p('estimates/')).set('X-API-Key', key).send({ type: 'points' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.patch(p('estimates/')).set('X-API-Key', key).send({ type: 'sizes' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('points: create from a bare array or {estimate_points}, keys assigned in order, list by key (bare array)', async () => {
    const res = await t.api
      .post(p(`estimates/${estimate.id}/estimate-points/`))
      .set('X-API-Key', key)
      .send([{ value: '1' }, { value: '2' }, { value: '3', key: 5 }]);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.ok(Array.isArray(res.body));
    assert.deepEqual(
      res.body.map((x: { key: number; value: string }) => [x.key, x.value]),
      [
        [0, '1'],
        [1, '2'],
        [5, '3'],
      ],
    );
    assert.equal(res.body[0].estimate, estimate.id);
    const more = await t.api
      .post(p(`estimates/${estimate.id}/estimate-points/`))
      .set('X-API-Key', key)
      .send({ estimate_points: [{ value: '8', description: 'big' }] });
    assert.equal(more.status, 201);
    assert.equal(more.body[0].key, 6);
    const list = await t.api.get(p(`estimates/${estimate.id}/estimate-points/`)).set('X-API-Key', key);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((x: { value: string }) => x.value),
      ['1', '2', '3', '8'],
    );
    points = list.body;
  });

  it('points: bad input is 422 (numbers only for a points estimate, blank, too long) or 400 (not a list); a used key is 409; all or none', async () => {
    const url = p(`estimates/${estimate.id}/estimate-points/`);
    const bad = await t.api
      .post(url)
      .set('X-API-Key', key)
      .send([{ value: '13' }, { value: 'XL' }]);
    assertError(bad, 422, 'VALIDATION_ERROR');
    assert.ok(bad.body.errors['estimate_points.1.value']);
    assertError(
      await t.api
        .post(url)
        .set('X-API-Key', key)
        .send([{ value: '' }]),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .post(url)
        .set('X-API-Key', key)
        .send([{ value: '1'.repeat(21) }]),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await t.api.post(url).set('X-API-Key', key).send([{}]), 422, 'VALIDATION_ERROR');
    assertError(await t.api.post(url).set('X-API-Key', key).send([]), 422, 'VALIDATION_ERROR');
    assertError(await t.api.post(url).set('X-API-Key', key).send({ value: '1' }), 400, 'MALFORMED_REQUEST');
    const taken = await t.api
      .post(url)
      .set('X-API-Key', key)
      .send([{ value: '21' }, { value: '34', key: 0 }]);
    assertError(taken, 409, 'ESTIMATE_POINT_KEY_TAKEN');
    assert.equal((await t.api.get(url).set('X-API-Key', key)).body.length, 4);
    assertError(
      await t.api.get(p('estimates/7f0b5a1e-0000-4000-8000-000000000000/estimate-points/')).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
  });

  it('points: update and key clash', async () => {
    const url = p(`estimates/${estimate.id}/estimate-points/${points[3].id}/`);
    const upd = await t.api.patch(url).set('X-API-Key', key).send({ value: '13', description: 'huge' });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.equal(upd.body.value, '13');
    assert.equal(upd.body.key, 6);
    assertError(await t.api.patch(url).set('X-API-Key', key).send({ key: 0 }), 409, 'ESTIMATE_POINT_KEY_TAKEN');
    assertError(await t.api.patch(url).set('X-API-Key', key).send({ value: 'big' }), 422, 'VALIDATION_ERROR');
    assertError(
      await t.api
        .patch(p(`estimates/${estimate.id}/estimate-points/7f0b5a1e-0000-4000-8000-000000000000/`))
        .set('X-API-Key', key)
        .send({ value: '1' }),
      404,
      'NOT_FOUND',
    );
  });

  it('a work item takes only a point of the estimate the project uses (linked with PATCH project {estimate})', async () => {
    const early = await t.api
      .post(p('work-items/'))
      .set('X-API-Key', key)
      .send({ name: 'early', estimate_point: points[0].id });
    assertError(early, 422, 'VALIDATION_ERROR');
    assert.ok(early.body.errors.estimate_point);
    const other = await createProject(t, key, ws.slug, { identifier: 'OTH', name: 'Other' });
    assertError(
      await t.api.patch(p('', other.id)).set('X-API-Key', key).send({ estimate: estimate.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await t.api.patch(p('')).set('X-API-Key', key).send({ estimate: 'nope' }), 422, 'VALIDATION_ERROR');
    const linked = await t.api.patch(p('')).set('X-API-Key', key).send({ estimate: estimate.id });
    assert.equal(linked.status, 200, JSON.stringify(linked.body));
    assert.equal(linked.body.estimate, estimate.id);
    const item = await t.api
      .post(p('work-items/'))
      .set('X-API-Key', key)
      .send({ name: 'sized', estimate_point: points[1].id });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    assert.equal(item.body.estimate_point, points[1].id);
    const moved = await t.api
      .patch(p(`issues/${item.body.id}/`))
      .set('X-API-Key', key)
      .send({ estimate_point: points[2].id });
    assert.equal(moved.body.estimate_point, points[2].id);
    assertError(
      await t.api
        .patch(p(`issues/${item.body.id}/`))
        .set('X-API-Key', key)
        .send({ estimate_point: '7f0b5a1e-0000-4000-8000-000000000000' }),
      422,
      'VALIDATION_ERROR',
    );
    // deleting the point clears it on the work item, with history
    assert.equal(
      (await t.api.delete(p(`estimates/${estimate.id}/estimate-points/${points[2].id}/`)).set('X-API-Key', key)).status,
      204,
    );
    assert.equal((await t.api.get(p(`issues/${item.body.id}/`)).set('X-API-Key', key)).body.estimate_point, null);
    const hist = await t.sql<{ old_identifier: string; new_value: string | null }>(
      `SELECT old_identifier, new_value FROM issue_activities WHERE issue_id = $1 AND field = 'estimate_point' AND comment = 'removed the estimate point'`,
      [item.body.id],
    );
    assert.deepEqual(hist, [{ old_identifier: points[2].id, new_value: null }]);
    assert.equal(
      (await t.api.get(p(`estimates/${estimate.id}/estimate-points/`)).set('X-API-Key', key)).body.length,
      3,
    );
    // deleting the estimate unlinks it from the project and clears the work items' points
    await t.api
      .patch(p(`issues/${item.body.id}/`))
      .set('X-API-Key', key)
      .send({ estimate_point: points[0].id });
    assert.equal((await t.api.delete(p('estimates/')).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.get(p('')).set('X-API-Key', key)).body.estimate, null);
    assert.equal((await t.api.get(p(`issues/${item.body.id}/`)).set('X-API-Key', key)).body.estimate_point, null);
    assertError(await t.api.get(p('estimates/')).set('X-API-Key', key), 404, 'NOT_FOUND');
    const again = await t.api.post(p('estimates/')).set('X-API-Key', key).send({ name: 'T-shirt' });
    assert.equal(again.status, 201);
    assert.equal(again.body.type, 'categories');
    const sizes = await t.api
      .post(p(`estimates/${again.body.id}/estimate-points/`))
      .set('X-API-Key', key)
      .send([{ value: 'S' }, { value: 'XL' }]);
    assert.equal(sizes.status, 201, JSON.stringify(sizes.body));
  });

  it('members read; only project Admins change estimates (403); outsiders get 404', async () => {
    const m = await signUp(t);
    await addMember(t, ws.id, m.userId, 20);
    const mk = await createApiKey(t, m.token, ws.slug);
    await setWorkspaceRole(t, ws.id, m.userId, 15);
    await addProjectMember(t, ws.id, project.id, m.userId, 15);
    assert.equal((await t.api.get(p('estimates/')).set('X-API-Key', mk)).status, 200);
    assertError(
      await t.api.patch(p('estimates/')).set('X-API-Key', mk).send({ name: 'mine' }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(await t.api.delete(p('estimates/')).set('X-API-Key', mk), 403, 'PERMISSION_DENIED');
    const e = (await t.api.get(p('estimates/')).set('X-API-Key', key)).body;
    assertError(
      await t.api
        .post(p(`estimates/${e.id}/estimate-points/`))
        .set('X-API-Key', mk)
        .send([{ value: 'M' }]),
      403,
      'PERMISSION_DENIED',
    );
    const stranger = await signUp(t);
    const ws2 = await createWorkspace(t, stranger.token);
    const k2 = await createApiKey(t, stranger.token, ws2.slug);
    const p2 = await createProject(t, k2, ws2.slug, { identifier: 'FOR', name: 'Foreign' });
    // another project's estimate id is unknown here
    await t.api
      .post(`/api/v1/workspaces/${ws2.slug}/projects/${p2.id}/estimates/`)
      .set('X-API-Key', k2)
      .send({ name: 'theirs' });
    const theirs = (await t.api.get(`/api/v1/workspaces/${ws2.slug}/projects/${p2.id}/estimates/`).set('X-API-Key', k2))
      .body;
    assertError(await t.api.get(p(`estimates/${theirs.id}/estimate-points/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });
});
