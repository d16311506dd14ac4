import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMemberWithKey,
  addProjectMember,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  signUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: modules', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let member: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let memberKey: string;
  let project: { id: string };
  const p = (path: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const post = (path: string, body: unknown, k = key) =>
    t.api
      .post(p(path))
      .set('X-API-Key', k)
      .send(body as object);
  const get = (path: string, k = key) => t.api.get(p(path)).set('X-API-Key', k);
  const del = (path: string, k = key) => t.api.delete(p(path)).set('X-API-Key', k);
  const item = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await post('work-items/', { name, ...extra });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string };
  };
  const mod = async (body: Record<string, unknown>) => {
    const res = await post('modules/', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; name: string };
  };
  const activities = async (issueId: string) =>
    (await get(`work-items/${issueId}/activities/`)).body.results as Array<{
      field: string;
      verb: string;
      old_identifier: string | null;
      new_identifier: string | null;
      new_value: string | null;
    }>;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    member = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    memberKey = await addMemberWithKey(t, ws, member, 15);
    project = await createProject(t, key, ws.slug, { identifier: 'MO', name: 'Modules' });
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
  });
  after(() => t.close());

  it('creates a module: status planned by default, lead, members filtered to project members, dates, sort_order, counts', async () => {
    const stranger = await signUp(t);
    const res = await post('modules/', {
      name: ' Auth ',
      description: 'log in',
      start_date: '2030-01-01',
      target_date: '2030-02-01',
      lead: member.userId,
      members: [member.userId, owner.userId, stranger.userId],
      external_id: 'm1',
      external_source: 'jira',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Auth');
    assert.equal(res.body.status, 'planned');
    assert.equal(res.body.lead, member.userId);
    assert.deepEqual(res.body.members, [member.userId, owner.userId].sort());
    assert.equal(res.body.start_date, '2030-01-01');
    assert.equal(res.body.target_date, '2030-02-01');
    assert.equal(res.body.sort_order, 65535);
    assert.equal(res.body.total_issues, 0);
    assert.equal(res.body.archived_at, null);
    assert.equal(res.body.project, project.id);
    const second = await mod({ name: 'Billing', status: 'in-progress' });
    assert.equal((await get(`modules/${second.id}/`)).body.sort_order, 55535);
    assert.equal((await get(`modules/${second.id}/`)).body.status, 'in-progress');
    const dup = assertError(await post('modules/', { name: 'Auth' }), 409, 'MODULE_NAME_TAKEN');
    assert.equal(dup.id, res.body.id);
    const ext = assertError(
      await post('modules/', { name: 'Other', external_id: 'm1', external_source: 'jira' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    assert.equal(ext.id, res.body.id);
    assertError(await post('modules/', { name: 'x', status: 'done' }), 422, 'VALIDATION_ERROR');
    assertError(
      await post('modules/', { name: 'x', start_date: '2030-03-01', target_date: '2030-02-01' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await post('modules/', { name: 'x', lead: stranger.userId }), 422, 'VALIDATION_ERROR');
    assertError(await post('modules/', { name: 'x', start_date: 'tomorrow' }), 422, 'VALIDATION_ERROR');
    assertError(await post('modules/', {}), 422, 'VALIDATION_ERROR');
  });

  it('lists modules newest first, paginated; updates: members replace the set, rename clash 409', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'MOL', name: 'Module list' });
    const a = (await t.api.post(p('modules/', pr.id)).set('X-API-Key', key).send({ name: 'A' })).body;
    const b = (
      await t.api
        .post(p('modules/', pr.id))
        .set('X-API-Key', key)
        .send({ name: 'B', members: [owner.userId] })
    ).body;
    const list = await t.api.get(p('modules/?per_page=1', pr.id)).set('X-API-Key', key);
    assert.equal(list.status, 200);
    assert.equal(list.body.total_count, 2);
    assert.deepEqual(
      list.body.results.map((m: { id: string }) => m.id),
      [b.id],
    );
    const next = await t.api.get(p(`modules/?per_page=1&cursor=${list.body.next_cursor}`, pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      next.body.results.map((m: { id: string }) => m.id),
      [a.id],
    );
    const upd = await t.api
      .patch(p(`modules/${b.id}/`, pr.id))
      .set('X-API-Key', key)
      .send({
        members: [],
        status: 'paused',
        target_date: '2030-01-01T10:00:00Z',
        lead: null,
        id: b.id,
        total_issues: 9,
      });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.deepEqual(upd.body.members, []);
    assert.equal(upd.body.status, 'paused');
    assert.equal(upd.body.target_date, '2030-01-01');
    assert.equal(upd.body.name, 'B');
    assertError(
      await t.api
        .patch(p(`modules/${b.id}/`, pr.id))
        .set('X-API-Key', key)
        .send({ name: 'A' }),
      409,
      'MODULE_NAME_TAKEN',
    );
    const same = await t.api
      .patch(p(`modules/${b.id}/`, pr.id))
      .set('X-API-Key', key)
      .send({ name: 'B', description: 'kept' });
    assert.equal(same.body.description, 'kept');
  });

  it('module-issues: add several (200 array of links), list as work items, counts, retrieve the link, remove; history written', async () => {
    const m = await mod({ name: 'Work' });
    const m2 = await mod({ name: 'Also' });
    const a = await item('a');
    const [done] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Done'`, [
      project.id,
    ]);
    const b = await item('b', { state: done.id });
    const added = await post(`modules/${m.id}/module-issues/`, { issues: [a.id, b.id] });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.deepEqual(added.body.map((l: { issue: string }) => l.issue).sort(), [a.id, b.id].sort());
    assert.equal(added.body[0].module, m.id);
    assert.equal(typeof added.body[0].sub_issues_count, 'number');
    const again = await post(`modules/${m.id}/module-issues/`, { issues: [a.id] });
    assert.equal(again.body.length, 2);
    const inBoth = await post(`modules/${m2.id}/module-issues/`, { issues: [a.id] });
    assert.equal(inBoth.status, 200);
    const got = await get(`modules/${m.id}/`);
    assert.equal(got.body.total_issues, 2);
    assert.equal(got.body.completed_issues, 1);
    assert.equal(got.body.backlog_issues, 1);
    const list = await get(`modules/${m.id}/module-issues/`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.results.map((i: { id: string }) => i.id),
      [a.id, b.id],
    );
    assert.equal(list.body.results[0].name, 'a');
    const newest = await get(`modules/${m.id}/module-issues/?order_by=-created_at&fields=id`);
    assert.deepEqual(newest.body.results, [{ id: b.id }, { id: a.id }]);
    const link = await get(`modules/${m.id}/module-issues/${a.id}/`);
    assert.equal(link.status, 200);
    assert.equal(link.body.issue, a.id);
    const history = (await activities(a.id)).filter((h) => h.field === 'modules');
    assert.equal(history.length, 2);
    assert.deepEqual(history.map((h) => h.new_identifier).sort(), [m.id, m2.id].sort());
    assert.equal((await del(`modules/${m.id}/module-issues/${a.id}/`)).status, 204);
    assertError(await del(`modules/${m.id}/module-issues/${a.id}/`), 404, 'NOT_FOUND');
    const removed = (await activities(a.id)).filter((h) => h.field === 'modules').at(-1)!;
    assert.equal(removed.verb, 'deleted');
    assert.equal(removed.old_identifier, m.id);
    assert.equal((await get(`modules/${m.id}/`)).body.total_issues, 1);
    assert.equal((await get(`modules/${m2.id}/`)).body.total_issues, 1);
    assertError(await post(`modules/${m.id}/module-issues/`, { issues: [] }), 422, 'VALIDATION_ERROR');
    assertError(await post(`modules/${m.id}/module-issues/`, {}), 422, 'VALIDATION_ERROR');
    assertError(
      await post(`modules/${m.id}/module-issues/`, { issues: ['00000000-0000-4000-8000-000000000000'] }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('archive: only completed or cancelled; both unarchive routes; archived lists by both routes (no 500); archived is read-only', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'MOA', name: 'Module archive' });
    const q = (path: string) => p(path, pr.id);
    const m = (await t.api.post(q('modules/')).set('X-API-Key', key).send({ name: 'Ship', status: 'in-progress' }))
      .body;
    assertError(await t.api.post(q(`modules/${m.id}/archive/`)).set('X-API-Key', key), 400, 'MODULE_NOT_ARCHIVABLE');
    await t.api
      .patch(q(`modules/${m.id}/`))
      .set('X-API-Key', key)
      .send({ status: 'completed' });
    const arch = await t.api
      .post(q(`modules/${m.id}/archive/`))
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json');
    assert.equal(arch.status, 204, JSON.stringify(arch.body));
    assertError(await t.api.get(q(`modules/${m.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assert.equal((await t.api.get(q('modules/')).set('X-API-Key', key)).body.total_count, 0);
    const archived = await t.api.get(q('archived-modules/')).set('X-API-Key', key);
    assert.equal(archived.status, 200, JSON.stringify(archived.body));
    assert.deepEqual(
      archived.body.results.map((x: { id: string }) => x.id),
      [m.id],
    );
    assert.ok(archived.body.results[0].archived_at);
    const old = await t.api.get(q(`modules/${m.id}/archive/`)).set('X-API-Key', key);
    assert.equal(old.status, 200, JSON.stringify(old.body));
    assert.deepEqual(
      old.body.results.map((x: { id: string }) => x.id),
      [m.id],
    );
    assertError(
      await t.api
        .patch(q(`modules/${m.id}/`))
        .set('X-API-Key', key)
        .send({ name: 'x' }),
      400,
      'MODULE_ARCHIVED',
    );
    const counted = await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/${pr.id}/`).set('X-API-Key', key);
    assert.equal(counted.body.total_modules, 1);
    assert.equal(counted.body.total_cycles, 0);
    const x = (await t.api.post(q('work-items/')).set('X-API-Key', key).send({ name: 'late' })).body;
    assertError(
      await t.api
        .post(q(`modules/${m.id}/module-issues/`))
        .set('X-API-Key', key)
        .send({ issues: [x.id] }),
      400,
      'MODULE_ARCHIVED',
    );
    assert.equal((await t.api.delete(q(`archived-modules/${m.id}/unarchive/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.get(q(`modules/${m.id}/`)).set('X-API-Key', key)).body.archived_at, null);
    await t.api
      .patch(q(`modules/${m.id}/`))
      .set('X-API-Key', key)
      .send({ status: 'cancelled' });
    assert.equal((await t.api.post(q(`modules/${m.id}/archive/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.delete(q(`modules/${m.id}/archive/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await t.api.get(q('archived-modules/')).set('X-API-Key', key)).body.total_count, 0);
  });

  it("GET modules/{id}/archive/ answers for that module only; an unknown or foreign id is a 404 (not Plane's list of all)", async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'MOB', name: 'Module archive by id' });
    const q = (path: string) => p(path, pr.id);
    const make = async (name: string) =>
      (await t.api.post(q('modules/')).set('X-API-Key', key).send({ name, status: 'completed' })).body as {
        id: string;
      };
    const [a, b, live] = [await make('A'), await make('B'), await make('Live')];
    for (const x of [a, b])
      assert.equal((await t.api.post(q(`modules/${x.id}/archive/`)).set('X-API-Key', key)).status, 204);
    const onlyA = await t.api.get(q(`modules/${a.id}/archive/`)).set('X-API-Key', key);
    assert.equal(onlyA.status, 200, JSON.stringify(onlyA.body));
    assert.deepEqual(
      onlyA.body.results.map((x: { id: string }) => x.id),
      [a.id],
    );
    assert.equal(onlyA.body.total_count, 1);
    assert.ok(onlyA.body.results[0].archived_at);
    const onlyB = await t.api.get(q(`modules/${b.id}/archive/`)).set('X-API-Key', key);
    assert.deepEqual(
      onlyB.body.results.map((x: { id: string }) => x.id),
      [b.id],
    );
    // a live module of the project: no archived module to show
    const notArchived = await t.api.get(q(`modules/${live.id}/archive/`)).set('X-API-Key', key);
    assert.equal(notArchived.status, 200);
    assert.deepEqual(notArchived.body.results, []);
    // unknown id, another project's module, a malformed id
    assertError(
      await t.api.get(q('modules/00000000-0000-4000-8000-000000000000/archive/')).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
    const other = await mod({ name: 'Elsewhere', status: 'completed' });
    assert.equal((await post(`modules/${other.id}/archive/`, {})).status, 204);
    assertError(await t.api.get(q(`modules/${other.id}/archive/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.get(q('modules/not-a-uuid/archive/')).set('X-API-Key', key), 404, 'NOT_FOUND');
    // the project's own archived list still has both
    const all = await t.api.get(q('archived-modules/')).set('X-API-Key', key);
    assert.deepEqual(all.body.results.map((x: { id: string }) => x.id).sort(), [a.id, b.id].sort());
  });

  it('delete: only the creator or a project Admin; links go with history; the name is free again; foreign ids 404', async () => {
    const m = await mod({ name: 'Doomed' });
    const x = await item('in doomed');
    await post(`modules/${m.id}/module-issues/`, { issues: [x.id] });
    assertError(await del(`modules/${m.id}/`, memberKey), 403, 'PERMISSION_DENIED');
    const mine = await post('modules/', { name: 'Member module' }, memberKey);
    assert.equal(mine.status, 201);
    assert.equal((await del(`modules/${mine.body.id}/`, memberKey)).status, 204);
    assert.equal((await del(`modules/${m.id}/`)).status, 204);
    assertError(await get(`modules/${m.id}/`), 404, 'NOT_FOUND');
    const last = (await activities(x.id)).filter((h) => h.field === 'modules').at(-1)!;
    assert.equal(last.verb, 'deleted');
    assert.equal(last.old_identifier, m.id);
    assert.equal((await post('modules/', { name: 'Doomed' })).status, 201);
    const other = await createProject(t, key, ws.slug, { identifier: 'MOF', name: 'Foreign' });
    const foreign = (await t.api.post(p('modules/', other.id)).set('X-API-Key', key).send({ name: 'elsewhere' })).body;
    assertError(await get(`modules/${foreign.id}/`), 404, 'NOT_FOUND');
    assertError(await get(`modules/${foreign.id}/module-issues/`), 404, 'NOT_FOUND');
    assertError(await del(`modules/${foreign.id}/`), 404, 'NOT_FOUND');
  });

  it('a Guest reads but cannot write', async () => {
    const guest = await signUp(t);
    const guestKey = await addMemberWithKey(t, ws, guest, 5);
    await addProjectMember(t, ws.id, project.id, guest.userId, 5);
    assert.equal((await get('modules/', guestKey)).status, 200);
    assertError(await post('modules/', { name: 'guest' }, guestKey), 403, 'PERMISSION_DENIED');
  });
});
