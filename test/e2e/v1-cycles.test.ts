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

describe('External API v1: cycles', () => {
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
  const item = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await post('work-items/', { name, ...extra });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; state: string };
  };
  const cycle = async (body: Record<string, unknown>) => {
    const res = await post('cycles/', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; name: string; start_date: string | null; end_date: string | null };
  };
  const activities = async (issueId: string) =>
    (await get(`work-items/${issueId}/activities/`)).body.results as Array<{
      field: string;
      verb: string;
      old_identifier: string | null;
      new_identifier: string | null;
      new_value: string | null;
      old_value: string | null;
      comment: string;
    }>;
  const stateId = async (name: string) =>
    (await t.sql<{ id: string }>('SELECT id FROM states WHERE project_id = $1 AND name = $2', [project.id, name]))[0]
      .id;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    member = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    memberKey = await addMemberWithKey(t, ws, member, 15);
    project = await createProject(t, key, ws.slug, { identifier: 'CY', name: 'Cycles' });
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
  });
  after(() => t.close());

  it('creates a cycle: owner defaults to the caller, days become instants in the time zone, sort_order min − 10000, counts', async () => {
    const res = await post('cycles/', {
      name: ' Sprint 1 ',
      description: 'd',
      start_date: '2030-01-01',
      end_date: '2030-01-14',
      project_id: project.id,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Sprint 1');
    assert.equal(res.body.owned_by, owner.userId);
    assert.equal(res.body.start_date, '2030-01-01T00:00:00.000Z');
    assert.equal(res.body.end_date, '2030-01-14T23:59:59.000Z');
    assert.equal(res.body.timezone, 'UTC');
    assert.equal(res.body.sort_order, 65535);
    assert.equal(res.body.project, project.id);
    assert.equal(res.body.workspace, ws.id);
    assert.equal(res.body.total_issues, 0);
    assert.deepEqual(res.body.view_props, {});
    const second = await cycle({
      name: 'Sprint 2',
      start_date: '2030-02-01',
      end_date: '2030-02-01',
      timezone: 'Asia/Kolkata',
      owned_by: member.userId,
    });
    assert.equal(second.start_date, '2030-01-31T18:30:00.000Z');
    assert.equal(second.end_date, '2030-02-01T18:29:59.000Z');
    const got = await get(`cycles/${second.id}/`);
    assert.equal(got.body.sort_order, 65535 - 10000);
    assert.equal(got.body.owned_by, member.userId);
    const ext = await cycle({ name: 'Ext', external_id: 'c1', external_source: 'jira' });
    assert.equal(ext.start_date, null);
    const clash = assertError(
      await post('cycles/', { name: 'Ext 2', external_id: 'c1', external_source: 'jira' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    assert.equal(clash.id, ext.id);
  });

  it('rejects bad cycle input with 422: one date only, start after end, bad date, unknown time zone, owner not a member, no name', async () => {
    const one = assertError(await post('cycles/', { name: 'x', start_date: '2030-01-01' }), 422, 'VALIDATION_ERROR');
    assert.ok((one.errors as Record<string, unknown>).end_date);
    const order = assertError(
      await post('cycles/', { name: 'x', start_date: '2030-01-05', end_date: '2030-01-01' }),
      422,
      'VALIDATION_ERROR',
    );
    assert.ok((order.errors as Record<string, unknown>).start_date);
    assertError(
      await post('cycles/', { name: 'x', start_date: 'soon', end_date: '2030-01-01' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await post('cycles/', { name: 'x', start_date: '2030-02-30', end_date: '2030-03-01' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await post('cycles/', { name: 'x', timezone: 'Mars/Base' }), 422, 'VALIDATION_ERROR');
    const stranger = await signUp(t);
    assertError(await post('cycles/', { name: 'x', owned_by: stranger.userId }), 422, 'VALIDATION_ERROR');
    assertError(await post('cycles/', { description: 'no name' }), 422, 'VALIDATION_ERROR');
    assertError(await post('cycles/', { name: 'x', nonsense: 1 }), 422, 'VALIDATION_ERROR');
  });

  it('lists cycles newest first, paginated; cycle_view filters current, upcoming, completed, draft, incomplete', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'CYV', name: 'Cycle views' });
    const mk = async (name: string, body: Record<string, unknown>) => {
      const res = await t.api
        .post(p('cycles/', pr.id))
        .set('X-API-Key', key)
        .send({ name, ...body });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.id as string;
    };
    const day = (offset: number) => new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
    const past = await mk('past', { start_date: day(-20), end_date: day(-10) });
    const current = await mk('current', { start_date: day(-2), end_date: day(2) });
    const upcoming = await mk('upcoming', { start_date: day(10), end_date: day(20) });
    const draft = await mk('draft', {});
    const list = async (view?: string) => {
      const res = await t.api.get(p(`cycles/${view ? `?cycle_view=${view}` : ''}`, pr.id)).set('X-API-Key', key);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body;
    };
    const all = await list();
    assert.deepEqual(
      all.results.map((c: { id: string }) => c.id),
      [draft, upcoming, current, past],
    );
    assert.equal(all.total_count, 4);
    const cur = await list('current');
    assert.ok(Array.isArray(cur));
    assert.deepEqual(
      cur.map((c: { id: string }) => c.id),
      [current],
    );
    assert.deepEqual(
      (await list('upcoming')).results.map((c: { id: string }) => c.id),
      [upcoming],
    );
    assert.deepEqual(
      (await list('completed')).results.map((c: { id: string }) => c.id),
      [past],
    );
    assert.deepEqual(
      (await list('draft')).results.map((c: { id: string }) => c.id),
      [draft],
    );
    assert.deepEqual(
      (await list('incomplete')).results.map((c: { id: string }) => c.id),
      [draft, upcoming, current],
    );
    const paged = await t.api.get(p('cycles/?per_page=3', pr.id)).set('X-API-Key', key);
    assert.equal(paged.body.results.length, 3);
    const next = await t.api.get(p(`cycles/?per_page=3&cursor=${paged.body.next_cursor}`, pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      next.body.results.map((c: { id: string }) => c.id),
      [past],
    );
    assertError(
      await t.api.get(p('cycles/?cycle_view=later', pr.id)).set('X-API-Key', key),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    const counted = await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/${pr.id}/`).set('X-API-Key', key);
    assert.equal(counted.body.total_cycles, 4);
  });

  it('cycle-issues: add several (200 array of links), list as work items with counts, retrieve the link, remove; history written', async () => {
    const c = await cycle({ name: 'Work', start_date: '2030-03-01', end_date: '2030-03-14' });
    const a = await item('a');
    const b = await item('b', { state: await stateId('Done') });
    await item('sub of a', { parent: a.id });
    const added = await post(`cycles/${c.id}/cycle-issues/`, { issues: [a.id, b.id, a.id] });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    assert.ok(Array.isArray(added.body));
    assert.deepEqual(added.body.map((l: { issue: string }) => l.issue).sort(), [a.id, b.id].sort());
    const linkA = added.body.find((l: { issue: string }) => l.issue === a.id);
    assert.equal(linkA.cycle, c.id);
    assert.equal(linkA.sub_issues_count, 1);
    assert.equal(linkA.project, project.id);
    const got = await get(`cycles/${c.id}/`);
    assert.equal(got.body.total_issues, 2);
    assert.equal(got.body.completed_issues, 1);
    assert.equal(got.body.backlog_issues, 1);
    const list = await get(`cycles/${c.id}/cycle-issues/`);
    assert.equal(list.status, 200);
    assert.equal(list.body.total_count, 2);
    assert.deepEqual(
      list.body.results.map((i: { id: string }) => i.id),
      [a.id, b.id],
    );
    assert.equal(list.body.results[0].name, 'a');
    assert.equal(list.body.results[0].sequence_id !== undefined, true);
    const page = await get(
      `cycles/${c.id}/cycle-issues/?per_page=1&order_by=-created_at&expand=state&fields=id,name,state`,
    );
    assert.deepEqual(Object.keys(page.body.results[0]).sort(), ['id', 'name', 'state']);
    assert.equal(page.body.results[0].id, b.id);
    assert.equal(page.body.results[0].state.name, 'Done');
    assert.ok(page.body.next_page_results);
    const link = await get(`cycles/${c.id}/cycle-issues/${a.id}/`);
    assert.equal(link.status, 200);
    assert.equal(link.body.id, linkA.id);
    let history = await activities(a.id);
    const addedRow = history.find((h) => h.field === 'cycles');
    assert.ok(addedRow, JSON.stringify(history));
    assert.equal(addedRow.new_identifier, c.id);
    assert.equal(addedRow.new_value, 'Work');
    const del = await t.api.delete(p(`cycles/${c.id}/cycle-issues/${a.id}/`)).set('X-API-Key', key);
    assert.equal(del.status, 204);
    assertError(await get(`cycles/${c.id}/cycle-issues/${a.id}/`), 404, 'NOT_FOUND');
    assertError(await t.api.delete(p(`cycles/${c.id}/cycle-issues/${a.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    history = await activities(a.id);
    const removed = history.filter((h) => h.field === 'cycles').at(-1)!;
    assert.equal(removed.verb, 'deleted');
    assert.equal(removed.old_identifier, c.id);
    assert.equal((await get(`cycles/${c.id}/`)).body.total_issues, 1);
    assertError(await post(`cycles/${c.id}/cycle-issues/`, { issues: [] }), 422, 'VALIDATION_ERROR');
    assertError(await post(`cycles/${c.id}/cycle-issues/`, { issues: ['not-a-uuid'] }), 422, 'VALIDATION_ERROR');
    const other = await createProject(t, key, ws.slug, { identifier: 'CYO', name: 'Other' });
    const foreign = await t.api.post(p('work-items/', other.id)).set('X-API-Key', key).send({ name: 'foreign' });
    assertError(await post(`cycles/${c.id}/cycle-issues/`, { issues: [foreign.body.id] }), 422, 'VALIDATION_ERROR');
    assertError(await t.api.get(p(`cycles/${c.id}/cycle-issues/`, other.id)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('a work item is in at most one cycle: adding it to another moves it and records the change; a failed add writes nothing', async () => {
    const c1 = await cycle({ name: 'From', start_date: '2030-04-01', end_date: '2030-04-10' });
    const c2 = await cycle({ name: 'To', start_date: '2030-04-11', end_date: '2030-04-20' });
    const x = await item('mover');
    await post(`cycles/${c1.id}/cycle-issues/`, { issues: [x.id] });
    const moved = await post(`cycles/${c2.id}/cycle-issues/`, { issues: [x.id] });
    assert.equal(moved.status, 200);
    const rows = await t.sql<{ cycle_id: string }>('SELECT cycle_id FROM cycle_issues WHERE issue_id = $1', [x.id]);
    assert.deepEqual(
      rows.map((r) => r.cycle_id),
      [c2.id],
    );
    assert.equal((await get(`cycles/${c1.id}/`)).body.total_issues, 0);
    const last = (await activities(x.id)).filter((h) => h.field === 'cycles').at(-1)!;
    assert.equal(last.verb, 'updated');
    assert.equal(last.old_identifier, c1.id);
    assert.equal(last.new_identifier, c2.id);
    const before = (await activities(x.id)).length;
    const y = await item('valid');
    const beforeY = (await activities(y.id)).length;
    assertError(
      await post(`cycles/${c1.id}/cycle-issues/`, { issues: [y.id, '00000000-0000-4000-8000-000000000000'] }),
      422,
      'VALIDATION_ERROR',
    );
    assert.equal((await activities(y.id)).length, beforeY);
    assert.equal((await activities(x.id)).length, before);
    assert.equal((await t.sql('SELECT 1 FROM cycle_issues WHERE issue_id = $1', [y.id])).length, 0);
  });

  it('ended cycles: nothing added, only sort_order editable; archived cycles cannot be edited', async () => {
    const ended = await cycle({ name: 'Ended', start_date: '2020-01-01', end_date: '2020-01-14' });
    const x = await item('late');
    assertError(await post(`cycles/${ended.id}/cycle-issues/`, { issues: [x.id] }), 400, 'CYCLE_COMPLETED');
    assertError(
      await t.api
        .patch(p(`cycles/${ended.id}/`))
        .set('X-API-Key', key)
        .send({ name: 'renamed', sort_order: 5 }),
      400,
      'CYCLE_COMPLETED',
    );
    const ok = await t.api
      .patch(p(`cycles/${ended.id}/`))
      .set('X-API-Key', key)
      .send({ sort_order: 5, id: ended.id, total_issues: 3 });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.sort_order, 5);
    assert.equal(ok.body.name, 'Ended');
    const open = await cycle({ name: 'Open', start_date: '2030-05-01', end_date: '2030-05-10' });
    const upd = await t.api
      .patch(p(`cycles/${open.id}/`))
      .set('X-API-Key', key)
      .send({ name: 'Open 2', end_date: '2030-05-20', view_props: { a: 1 } });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.equal(upd.body.name, 'Open 2');
    assert.equal(upd.body.end_date, '2030-05-20T23:59:59.000Z');
    assert.equal(upd.body.start_date, '2030-05-01T00:00:00.000Z');
    assert.deepEqual(upd.body.view_props, { a: 1 });
    assertError(
      await t.api
        .patch(p(`cycles/${open.id}/`))
        .set('X-API-Key', key)
        .send({ start_date: null }),
      422,
      'VALIDATION_ERROR',
    );
    const cleared = await t.api
      .patch(p(`cycles/${open.id}/`))
      .set('X-API-Key', key)
      .send({ start_date: null, end_date: null });
    assert.equal(cleared.body.start_date, null);
    assert.equal(cleared.body.end_date, null);
  });

  it('transfer-issues moves the open work items of an ended cycle to one that has not ended, with history and a snapshot', async () => {
    const from = await cycle({ name: 'Old sprint', start_date: '2021-01-01', end_date: '2021-01-14' });
    const to = await cycle({ name: 'New sprint', start_date: '2031-01-01', end_date: '2031-01-14' });
    const ended2 = await cycle({ name: 'Also ended', start_date: '2021-02-01', end_date: '2021-02-14' });
    const open1 = await item('open 1');
    const open2 = await item('open 2', { state: await stateId('In Progress') });
    const done = await item('done', { state: await stateId('Done') });
    await t.sql(
      'INSERT INTO cycle_issues (workspace_id, project_id, cycle_id, issue_id) SELECT workspace_id, project_id, $1, id FROM issues WHERE id IN ($2, $3, $4)',
      [from.id, open1.id, open2.id, done.id],
    );
    assertError(await post(`cycles/${to.id}/transfer-issues/`, { new_cycle_id: from.id }), 400, 'CYCLE_NOT_COMPLETED');
    assertError(
      await post(`cycles/${from.id}/transfer-issues/`, { new_cycle_id: ended2.id }),
      400,
      'CYCLE_TRANSFER_TARGET_COMPLETED',
    );
    assertError(await post(`cycles/${from.id}/transfer-issues/`, {}), 422, 'VALIDATION_ERROR');
    assertError(
      await post(`cycles/${from.id}/transfer-issues/`, { new_cycle_id: '00000000-0000-4000-8000-000000000000' }),
      422,
      'VALIDATION_ERROR',
    );
    const res = await post(`cycles/${from.id}/transfer-issues/`, { new_cycle_id: to.id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Success' });
    const rows = await t.sql<{ issue_id: string; cycle_id: string }>(
      'SELECT issue_id, cycle_id FROM cycle_issues WHERE issue_id IN ($1, $2, $3)',
      [open1.id, open2.id, done.id],
    );
    const where = Object.fromEntries(rows.map((r) => [r.issue_id, r.cycle_id]));
    assert.equal(where[open1.id], to.id);
    assert.equal(where[open2.id], to.id);
    assert.equal(where[done.id], from.id);
    const old = await get(`cycles/${from.id}/`);
    assert.equal(old.body.progress_snapshot.total_issues, 3);
    assert.equal(old.body.progress_snapshot.completed_issues, 1);
    assert.equal(old.body.total_issues, 1);
    const moved = (await activities(open2.id)).filter((h) => h.field === 'cycles').at(-1)!;
    assert.equal(moved.old_identifier, from.id);
    assert.equal(moved.new_identifier, to.id);
  });

  it('archive (ended only), archived-cycles list, unarchive by both routes; archived cycles are hidden and read-only', async () => {
    const open = await cycle({ name: 'Running', start_date: '2030-06-01', end_date: '2030-06-10' });
    const draft = await cycle({ name: 'Undated' });
    assertError(await post(`cycles/${open.id}/archive/`, undefined), 400, 'CYCLE_NOT_COMPLETED');
    assertError(await post(`cycles/${draft.id}/archive/`, undefined), 400, 'CYCLE_NOT_COMPLETED');
    const ended = await cycle({ name: 'To archive', start_date: '2022-01-01', end_date: '2022-01-02' });
    const arch = await t.api
      .post(p(`cycles/${ended.id}/archive/`))
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json');
    assert.equal(arch.status, 204, JSON.stringify(arch.body));
    assertError(await get(`cycles/${ended.id}/`), 404, 'NOT_FOUND');
    assert.ok(!(await get('cycles/')).body.results.some((c: { id: string }) => c.id === ended.id));
    const archived = await get('archived-cycles/');
    assert.equal(archived.status, 200);
    assert.deepEqual(
      archived.body.results.map((c: { id: string }) => c.id),
      [ended.id],
    );
    assert.ok(archived.body.results[0].archived_at);
    assertError(
      await t.api
        .patch(p(`cycles/${ended.id}/`))
        .set('X-API-Key', key)
        .send({ sort_order: 1 }),
      400,
      'CYCLE_ARCHIVED',
    );
    assert.equal((await t.api.delete(p(`archived-cycles/${ended.id}/unarchive/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await get(`cycles/${ended.id}/`)).body.archived_at, null);
    assert.equal((await post(`cycles/${ended.id}/archive/`, {})).status, 204);
    assert.equal((await t.api.delete(p(`cycles/${ended.id}/archive/`)).set('X-API-Key', key)).status, 204);
    assert.equal((await get(`cycles/${ended.id}/`)).status, 200);
    assert.equal((await get('archived-cycles/')).body.total_count, 0);
  });

  it('delete: only the creator or a project Admin; the work items leave the cycle with history; foreign ids are 404', async () => {
    const c = await cycle({ name: 'Doomed', start_date: '2030-07-01', end_date: '2030-07-02' });
    const x = await item('in doomed');
    await post(`cycles/${c.id}/cycle-issues/`, { issues: [x.id] });
    assertError(await t.api.delete(p(`cycles/${c.id}/`)).set('X-API-Key', memberKey), 403, 'PERMISSION_DENIED');
    const mine = await t.api.post(p('cycles/')).set('X-API-Key', memberKey).send({ name: 'Member cycle' });
    assert.equal(mine.status, 201);
    assert.equal(mine.body.owned_by, member.userId);
    assert.equal((await t.api.delete(p(`cycles/${mine.body.id}/`)).set('X-API-Key', memberKey)).status, 204);
    assert.equal((await t.api.delete(p(`cycles/${c.id}/`)).set('X-API-Key', key)).status, 204);
    assertError(await get(`cycles/${c.id}/`), 404, 'NOT_FOUND');
    assert.equal((await t.sql('SELECT 1 FROM cycle_issues WHERE issue_id = $1', [x.id])).length, 0);
    const last = (await activities(x.id)).filter((h) => h.field === 'cycles').at(-1)!;
    assert.equal(last.verb, 'deleted');
    assert.equal(last.old_identifier, c.id);
    const other = await createProject(t, key, ws.slug, { identifier: 'CYF', name: 'Foreign' });
    const foreign = await t.api.post(p('cycles/', other.id)).set('X-API-Key', key).send({ name: 'elsewhere' });
    assertError(await get(`cycles/${foreign.body.id}/`), 404, 'NOT_FOUND');
    assertError(
      await t.api
        .patch(p(`cycles/${foreign.body.id}/`))
        .set('X-API-Key', key)
        .send({ name: 'x' }),
      404,
      'NOT_FOUND',
    );
    assertError(await get('cycles/not-a-uuid/'), 404, 'NOT_FOUND');
  });

  it('a Guest reads but cannot write; a non-member of the project gets 404', async () => {
    const guest = await signUp(t);
    const guestKey = await addMemberWithKey(t, ws, guest, 5);
    await addProjectMember(t, ws.id, project.id, guest.userId, 5);
    assert.equal((await get('cycles/', guestKey)).status, 200);
    assertError(await post('cycles/', { name: 'guest' }, guestKey), 403, 'PERMISSION_DENIED');
    const outsider = await signUp(t);
    const outsiderKey = await addMemberWithKey(t, ws, outsider, 15);
    const pr = await createProject(t, key, ws.slug, { identifier: 'CYS', name: 'Secret', network: 0 });
    assertError(await t.api.get(p('cycles/', pr.id)).set('X-API-Key', outsiderKey), 404, 'PROJECT_NOT_FOUND');
  });
});
