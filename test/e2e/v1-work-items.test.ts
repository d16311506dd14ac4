import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { ENGINE, startTestApp, TestApp } from '../support/test-app';
import { IssueCreateBatcher } from '#domain';

describe('External API v1: work items under /issues/ and /work-items/', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string; identifier: string };
  let states: Record<string, string>;
  const p = (path: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const w = (path: string) => `/api/v1/workspaces/${ws.slug}/${path}`;
  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'WI', name: 'Work items' });
    const rows = await t.sql<{ id: string; name: string }>('SELECT id, name FROM states WHERE project_id = $1', [
      project.id,
    ]);
    states = Object.fromEntries(rows.map((r) => [r.name, r.id]));
  });
  after(() => t.close());

  async function member(role: number, projectRole: number | null) {
    const u = await signUp(t);
    await addMember(t, ws.id, u.userId, 20);
    const k = await createApiKey(t, u.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = $1 WHERE member_id = $2', [role, u.userId]);
    if (projectRole !== null) {
      await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, $4)', [
        ws.id,
        project.id,
        u.userId,
        projectRole,
      ]);
    }
    return { ...u, key: k };
  }

  it('creates with Plane’s defaults: default state, sequence_id, sort_order, priority none, 201; created activity', async () => {
    const res = await t.api
      .post(p('work-items/'))
      .set('X-API-Key', key)
      .send({ name: 'First', description_html: '<p>Hello <b>world</b></p>' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const i = res.body;
    assert.equal(i.state, states.Backlog);
    assert.equal(i.priority, 'none');
    assert.equal(i.sequence_id, 1);
    assert.equal(i.sort_order, 65535);
    assert.equal(i.description_html, '<p>Hello <b>world</b></p>');
    assert.equal(i.description_stripped, 'Hello world');
    assert.equal(i.project, project.id);
    assert.equal(i.workspace, ws.id);
    assert.equal(i.created_by, owner.userId);
    assert.deepEqual(i.assignees, []);
    assert.deepEqual(i.labels, []);
    assert.equal(i.completed_at, null);
    const second = await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'Second' });
    assert.equal(second.body.sequence_id, 2);
    assert.equal(second.body.sort_order, 75535);
    const acts = await t.api.get(p(`issues/${i.id}/activities/`)).set('X-API-Key', key);
    assert.equal(acts.status, 200);
    assert.equal(acts.body.results.length, 1);
    assert.equal(acts.body.results[0].verb, 'created');
    assert.equal(acts.body.results[0].actor, owner.userId);
    assert.equal(acts.body.results[0].comment, 'created the issue');
  });

  it('both path families serve the same items: list, retrieve, update, delete', async () => {
    const created = await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'Twin' });
    const viaW = await t.api.get(p(`work-items/${created.body.id}/`)).set('X-API-Key', key);
    const viaI = await t.api.get(p(`issues/${created.body.id}`)).set('X-API-Key', key);
    assert.equal(viaW.status, 200);
    assert.deepEqual(viaW.body, viaI.body);
    const listW = await t.api.get(p('work-items/')).set('X-API-Key', key);
    const listI = await t.api.get(p('issues')).set('X-API-Key', key);
    assert.deepEqual(
      listW.body.results.map((x: { id: string }) => x.id),
      listI.body.results.map((x: { id: string }) => x.id),
    );
    assert.equal(listW.body.results[0].id, created.body.id, 'newest first');
    const upd = await t.api
      .patch(p(`work-items/${created.body.id}/`))
      .set('X-API-Key', key)
      .send({ priority: 'high' });
    assert.equal(upd.body.priority, 'high');
    assert.equal((await t.api.get(p(`issues/${created.body.id}/`)).set('X-API-Key', key)).body.priority, 'high');
    assert.equal((await t.api.delete(p(`issues/${created.body.id}/`)).set('X-API-Key', key)).status, 204);
    assertError(await t.api.get(p(`work-items/${created.body.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('validates: state of another project, parent elsewhere, bad dates, bad priority, unknown fields → 422; read-only keys ignored', async () => {
    const other = await createProject(t, key, ws.slug, { identifier: 'WI2', name: 'Other' });
    const [foreignState] = await t.sql<{ id: string }>('SELECT id FROM states WHERE project_id = $1 LIMIT 1', [
      other.id,
    ]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', state: foreignState.id }, 'state'],
      [{ name: 'x', parent: '00000000-0000-4000-8000-000000000000' }, 'parent'],
      [{ name: 'x', start_date: '2025-02-01', target_date: '2025-01-01' }, 'start_date'],
      [{ name: 'x', start_date: '2025-13-40' }, 'start_date'],
      [{ name: 'x', priority: 'critical' }, 'priority'],
      [{ name: 'x', assignees: ['nope'] }, 'assignees'],
      [{ name: '' }, 'name'],
      [{ name: 'x', bogus: 1 }, 'bogus'],
    ];
    for (const [body, field] of cases) {
      const err = assertError(await t.api.post(p('issues/')).set('X-API-Key', key).send(body), 422, 'VALIDATION_ERROR');
      assert.ok((err.errors as Record<string, unknown>)[field], `${JSON.stringify(body)} → ${JSON.stringify(err)}`);
    }
    const ok = await t.api
      .post(p('issues/'))
      .set('X-API-Key', key)
      .send({ name: 'ro', id: 'x', sequence_id: 999, created_at: 'x', project: 'x', completed_at: 'x', module: null });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.notEqual(ok.body.sequence_id, 999);
  });

  it('assignees and labels: non-members and foreign labels dropped, PATCH replaces the sets, with activities', async () => {
    const m = await member(15, 15);
    const guest = await member(5, 5);
    const stranger = await signUp(t);
    const other = await createProject(t, key, ws.slug, { identifier: 'WI3', name: 'Other 3' });
    const l1 = (await t.api.post(p('labels/')).set('X-API-Key', key).send({ name: 'L1' })).body;
    const l2 = (await t.api.post(p('labels/')).set('X-API-Key', key).send({ name: 'L2' })).body;
    const lf = (await t.api.post(p('labels/', other.id)).set('X-API-Key', key).send({ name: 'LF' })).body;
    const res = await t.api
      .post(p('issues/'))
      .set('X-API-Key', key)
      .send({ name: 'Sets', assignees: [m.userId, guest.userId, stranger.userId], labels: [l1.id, lf.id] });
    assert.deepEqual(res.body.assignees, [m.userId]);
    assert.deepEqual(res.body.labels, [l1.id]);
    const upd = await t.api
      .patch(p(`issues/${res.body.id}/`))
      .set('X-API-Key', key)
      .send({ assignees: [owner.userId], labels: [l2.id] });
    assert.deepEqual(upd.body.assignees, [owner.userId]);
    assert.deepEqual(upd.body.labels, [l2.id]);
    const acts = (await t.api.get(p(`work-items/${res.body.id}/activities/`)).set('X-API-Key', key)).body.results;
    const changes = acts
      .filter((a: { verb: string }) => a.verb === 'updated')
      .map((a: { field: string; old_identifier: string | null; new_identifier: string | null }) => [
        a.field,
        a.old_identifier,
        a.new_identifier,
      ]);
    assert.deepEqual(
      changes.sort(),
      [
        ['assignees', null, owner.userId],
        ['assignees', m.userId, null],
        ['labels', l1.id, null],
        ['labels', null, l2.id],
      ].sort(),
    );
  });

  it('PATCH writes who changed which field from what to what, in order, and moves completed_at with the state', async () => {
    const res = await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'History', priority: 'low' });
    const id = res.body.id;
    const upd = await t.api
      .patch(p(`issues/${id}/`))
      .set('X-API-Key', key)
      .send({
        name: 'History 2',
        priority: 'urgent',
        state: states.Done,
        target_date: '2030-01-02',
        description_html: '<p>d</p>',
      });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.equal(upd.body.state, states.Done);
    assert.ok(upd.body.completed_at);
    const back = await t.api
      .patch(p(`issues/${id}/`))
      .set('X-API-Key', key)
      .send({ state: states.Todo, name: 'History 2' });
    assert.equal(back.body.completed_at, null);
    const acts = (await t.api.get(p(`issues/${id}/activities/`)).set('X-API-Key', key)).body.results as Array<
      Record<string, string | null>
    >;
    const find = (field: string) =>
      acts.filter((a) => a.field === field).map((a) => [a.old_value, a.new_value, a.actor]);
    assert.deepEqual(find('name'), [['History', 'History 2', owner.userId]], 'an unchanged value writes nothing');
    assert.deepEqual(find('priority'), [['low', 'urgent', owner.userId]]);
    assert.deepEqual(find('state'), [
      ['Backlog', 'Done', owner.userId],
      ['Done', 'Todo', owner.userId],
    ]);
    assert.deepEqual(
      find('target_date'),
      [['', '2030-01-02', owner.userId]],
      'Plane writes "" for the empty side of a date',
    );
    assert.deepEqual(find('description'), [['<p></p>', '<p>d</p>', owner.userId]]);
    const stateAct = acts.find((a) => a.field === 'state')!;
    assert.equal(stateAct.old_identifier, states.Backlog);
    assert.equal(stateAct.new_identifier, states.Done);
    const one = await t.api.get(p(`issues/${id}/activities/${stateAct.id}/`)).set('X-API-Key', key);
    assert.equal(one.status, 200);
    assert.equal(one.body.id, stateAct.id);
    const newestFirst = await t.api.get(p(`issues/${id}/activities/?order_by=-created_at`)).set('X-API-Key', key);
    assert.equal(newestFirst.body.results.at(-1).verb, 'created');
  });

  it('a failed update writes no history (same transaction)', async () => {
    const a = await t.api
      .post(p('issues/'))
      .set('X-API-Key', key)
      .send({ name: 'Tx', external_id: 'tx-1', external_source: 'gh' });
    const b = await t.api
      .post(p('issues/'))
      .set('X-API-Key', key)
      .send({ name: 'Tx other', external_id: 'tx-2', external_source: 'gh' });
    const clash = assertError(
      await t.api
        .patch(p(`issues/${b.body.id}/`))
        .set('X-API-Key', key)
        .send({ name: 'renamed', external_id: 'tx-1' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    assert.equal(clash.id, a.body.id);
    const rows = await t.sql('SELECT 1 FROM issue_activities WHERE issue_id = $1 AND verb = $2', [
      b.body.id,
      'updated',
    ]);
    assert.equal(rows.length, 0);
    assert.equal((await t.api.get(p(`issues/${b.body.id}/`)).set('X-API-Key', key)).body.name, 'Tx other');
  });

  it('external_id + external_source: 409 on duplicates with the holder’s id, lookup by both returns one object', async () => {
    const a = await t.api
      .post(p('work-items/'))
      .set('X-API-Key', key)
      .send({ name: 'Ext', external_id: 'E-1', external_source: 'jira' });
    const dup = assertError(
      await t.api
        .post(p('work-items/'))
        .set('X-API-Key', key)
        .send({ name: 'Ext 2', external_id: 'E-1', external_source: 'jira' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    assert.equal(dup.id, a.body.id);
    // another source is another key
    assert.equal(
      (
        await t.api
          .post(p('work-items/'))
          .set('X-API-Key', key)
          .send({ name: 'Ext 3', external_id: 'E-1', external_source: 'linear' })
      ).status,
      201,
    );
    const found = await t.api.get(p('issues/?external_id=E-1&external_source=jira')).set('X-API-Key', key);
    assert.equal(found.status, 200);
    assert.equal(found.body.id, a.body.id);
    assertError(
      await t.api.get(p('issues/?external_id=nope&external_source=jira')).set('X-API-Key', key),
      404,
      'NOT_FOUND',
    );
  });

  it('PUT on the collection upserts by external_id + external_source: 201 then 200; 422 without them', async () => {
    const path = p('issues/');
    const created = await t.api
      .put(path)
      .set('X-API-Key', key)
      .send({ name: 'Imported', external_id: 'U-1', external_source: 'csv', priority: 'low' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const updated = await t.api
      .put(p('work-items/'))
      .set('X-API-Key', key)
      .send({ external_id: 'U-1', external_source: 'csv', priority: 'high' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.id, created.body.id);
    assert.equal(updated.body.priority, 'high');
    assert.equal(updated.body.name, 'Imported');
    const err = assertError(await t.api.put(path).set('X-API-Key', key).send({ name: 'x' }), 422, 'VALIDATION_ERROR');
    assert.ok((err.errors as Record<string, unknown>).external_id);
    assertError(
      await t.api.put(path).set('X-API-Key', key).send({ external_id: 'U-2', external_source: 'csv' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('nothing in an archived project can be written: 400 PROJECT_ARCHIVED', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'FRZ', name: 'Frozen' });
    const item = (await t.api.post(p('issues/', pr.id)).set('X-API-Key', key).send({ name: 'before' })).body;
    const [s] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Todo'`, [pr.id]);
    await t.api.post(`/api/v1/workspaces/${ws.slug}/projects/${pr.id}/archive/`).set('X-API-Key', key);
    assertError(
      await t.api.post(p('issues/', pr.id)).set('X-API-Key', key).send({ name: 'after' }),
      400,
      'PROJECT_ARCHIVED',
    );
    assertError(
      await t.api
        .patch(p(`issues/${item.id}/`, pr.id))
        .set('X-API-Key', key)
        .send({ name: 'x' }),
      400,
      'PROJECT_ARCHIVED',
    );
    assertError(await t.api.delete(p(`issues/${item.id}/`, pr.id)).set('X-API-Key', key), 400, 'PROJECT_ARCHIVED');
    assertError(
      await t.api.post(p('states/', pr.id)).set('X-API-Key', key).send({ name: 'n', color: '#1' }),
      400,
      'PROJECT_ARCHIVED',
    );
    assertError(
      await t.api
        .patch(p(`states/${s.id}/`, pr.id))
        .set('X-API-Key', key)
        .send({ name: 'n' }),
      400,
      'PROJECT_ARCHIVED',
    );
    assertError(
      await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'n' }),
      400,
      'PROJECT_ARCHIVED',
    );
    // reads: the project's states, labels and work items are hidden while it is archived (Plane)
    assert.equal((await t.api.get(p('states/', pr.id)).set('X-API-Key', key)).body.total_results, 0);
    assert.equal((await t.api.get(p('labels/', pr.id)).set('X-API-Key', key)).body.total_results, 0);
    assertError(await t.api.get(p(`states/${s.id}/`, pr.id)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.get(p(`issues/${item.id}/comments/`, pr.id)).set('X-API-Key', key), 404, 'NOT_FOUND');
    await t.api.delete(`/api/v1/workspaces/${ws.slug}/projects/${pr.id}/archive/`).set('X-API-Key', key);
    assert.equal((await t.api.get(p('states/', pr.id)).set('X-API-Key', key)).body.total_results, 5);
    assert.equal(
      (
        await t.api
          .patch(p(`issues/${item.id}/`, pr.id))
          .set('X-API-Key', key)
          .send({ name: 'x' })
      ).status,
      200,
    );
  });

  it('expand= replaces ids with objects (null → {}), fields= keeps named keys, on list and detail', async () => {
    const lbl = (await t.api.post(p('labels/')).set('X-API-Key', key).send({ name: 'expand-me', color: '#0f0' })).body;
    const parent = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'Parent' })).body;
    const child = (
      await t.api
        .post(p('issues/'))
        .set('X-API-Key', key)
        .send({ name: 'Child', parent: parent.id, labels: [lbl.id], assignees: [owner.userId] })
    ).body;
    const res = await t.api
      .get(p(`work-items/${child.id}/?expand=state,labels,assignees,project,parent,created_by`))
      .set('X-API-Key', key);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.state, { id: states.Backlog, name: 'Backlog', color: '#A3A3A3', group: 'backlog' });
    assert.equal(res.body.labels[0].name, 'expand-me');
    assert.equal(res.body.labels[0].color, '#0f0');
    assert.equal(res.body.assignees[0].id, owner.userId);
    assert.equal(res.body.assignees[0].email, owner.email);
    assert.equal(res.body.project.identifier, 'WI');
    assert.deepEqual(res.body.parent, { id: parent.id, sequence_id: parent.sequence_id, project_id: project.id });
    assert.equal(res.body.created_by.id, owner.userId);
    const noParent = await t.api.get(p(`issues/${parent.id}/?expand=parent`)).set('X-API-Key', key);
    assert.deepEqual(noParent.body.parent, {});
    const picked = await t.api
      .get(p(`issues/${child.id}/?fields=id,name,state&expand=state,labels`))
      .set('X-API-Key', key);
    assert.deepEqual(Object.keys(picked.body).sort(), ['id', 'name', 'state']);
    assert.equal(picked.body.state.name, 'Backlog');
    const list = await t.api.get(p('issues/?expand=state&fields=id,state')).set('X-API-Key', key);
    assert.ok(list.body.results.every((r: { state: { group: string } }) => typeof r.state.group === 'string'));
  });

  it('order_by: sequence_id, -sequence_id, priority; an unknown key is 400; pagination walks the order', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'ORD', name: 'Order' });
    const prios = ['low', 'urgent', 'none', 'high', 'medium'];
    for (const [n, priority] of prios.entries()) {
      await t.api
        .post(p('issues/', pr.id))
        .set('X-API-Key', key)
        .send({ name: `o${n}`, priority });
    }
    const seq = await t.api.get(p('issues/?order_by=sequence_id', pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      seq.body.results.map((r: { sequence_id: number }) => r.sequence_id),
      [1, 2, 3, 4, 5],
    );
    const rev = await t.api.get(p('issues/?order_by=-sequence_id&per_page=2', pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      rev.body.results.map((r: { sequence_id: number }) => r.sequence_id),
      [5, 4],
    );
    const rev2 = await t.api
      .get(p(`issues/?order_by=-sequence_id&per_page=2&cursor=${rev.body.next_cursor}`, pr.id))
      .set('X-API-Key', key);
    assert.deepEqual(
      rev2.body.results.map((r: { sequence_id: number }) => r.sequence_id),
      [3, 2],
    );
    const pri = await t.api.get(p('issues/?order_by=priority', pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      pri.body.results.map((r: { priority: string }) => r.priority),
      ['urgent', 'high', 'medium', 'low', 'none'],
    );
    assertError(
      await t.api.get(p('issues/?order_by=password', pr.id)).set('X-API-Key', key),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    const [done] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Done'`, [
      pr.id,
    ]);
    const [todo] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Todo'`, [
      pr.id,
    ]);
    const ids = seq.body.results.map((r: { id: string }) => r.id);
    await t.api
      .patch(p(`issues/${ids[0]}/`, pr.id))
      .set('X-API-Key', key)
      .send({ state: done.id, target_date: '2030-05-01' });
    await t.api
      .patch(p(`issues/${ids[1]}/`, pr.id))
      .set('X-API-Key', key)
      .send({ state: todo.id, target_date: '2030-01-01' });
    const byGroup = await t.api.get(p('issues/?order_by=-state__group', pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      byGroup.body.results.slice(0, 2).map((r: { id: string }) => r.id),
      [ids[0], ids[1]],
    );
    const byDate = await t.api.get(p('issues/?order_by=target_date', pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      byDate.body.results.slice(0, 2).map((r: { id: string }) => r.id),
      [ids[1], ids[0]],
      'dates first, nulls last',
    );
  });

  it('filters: state, priority, assignee, label (comma-separated); a bad value is 400', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'FLT', name: 'Filters' });
    const rows = await t.sql<{ id: string; name: string }>('SELECT id, name FROM states WHERE project_id = $1', [
      pr.id,
    ]);
    const st = Object.fromEntries(rows.map((r) => [r.name, r.id]));
    const lbl = (await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'f' })).body;
    const a = (
      await t.api
        .post(p('issues/', pr.id))
        .set('X-API-Key', key)
        .send({ name: 'a', priority: 'high', state: st.Todo, labels: [lbl.id] })
    ).body;
    const b = (
      await t.api
        .post(p('issues/', pr.id))
        .set('X-API-Key', key)
        .send({ name: 'b', priority: 'low', assignees: [owner.userId] })
    ).body;
    const c = (
      await t.api.post(p('issues/', pr.id)).set('X-API-Key', key).send({ name: 'c', priority: 'none', state: st.Done })
    ).body;
    const names = async (q: string) =>
      (await t.api.get(p(`work-items/?${q}&order_by=sequence_id`, pr.id)).set('X-API-Key', key)).body.results.map(
        (r: { id: string }) => r.id,
      );
    assert.deepEqual(await names(`state=${st.Todo}`), [a.id]);
    assert.deepEqual(await names(`state=${st.Todo},${st.Done}`), [a.id, c.id]);
    assert.deepEqual(await names('priority=low,none'), [b.id, c.id]);
    assert.deepEqual(await names(`assignee=${owner.userId}`), [b.id]);
    assert.deepEqual(await names(`label=${lbl.id}`), [a.id]);
    // the App API's reader: ids in any case, `null` dropped, priorities as given (Plane's `priority__in`)
    assert.deepEqual(await names(`state=${st.Todo.toUpperCase()},null`), [a.id]);
    assertError(
      await t.api.get(p('issues/?priority=LOW', pr.id)).set('X-API-Key', key),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    assertError(await t.api.get(p('issues/?state=todo', pr.id)).set('X-API-Key', key), 400, 'INVALID_QUERY_PARAMETER');
    assertError(
      await t.api.get(p('issues/?priority=critical', pr.id)).set('X-API-Key', key),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('100 parallel creates give 100 distinct consecutive sequence_ids; deleted numbers are not reused', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'PAR', name: 'Parallel' });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        t.api
          .post(p('work-items/', pr.id))
          .set('X-API-Key', key)
          .send({ name: `p${n}` }),
      ),
    );
    assert.ok(
      results.every((r) => r.status === 201),
      JSON.stringify(results.find((r) => r.status !== 201)?.body),
    );
    const seqs = results.map((r) => r.body.sequence_id as number).sort((a, b) => a - b);
    assert.deepEqual(
      seqs,
      Array.from({ length: 100 }, (_, n) => n + 1),
    );
    // sort orders too: distinct, in creation (sequence) order, 10000 apart in the default state
    const bySeq = [...results]
      .sort((a, b) => a.body.sequence_id - b.body.sequence_id)
      .map((r) => r.body.sort_order as number);
    assert.deepEqual(
      bySeq,
      Array.from({ length: 100 }, (_, n) => 65535 + n * 10000),
    );
    const rows = await t.sql<{ sequence_id: number; sort_order: number }>(
      'SELECT sequence_id, sort_order FROM issues WHERE project_id = $1 ORDER BY sequence_id',
      [pr.id],
    );
    assert.deepEqual(
      rows.map((r) => Number(r.sort_order)),
      bySeq,
      'the stored rows are what the responses said',
    );
    // each create wrote its history row and the creator's subscription with it, once
    const [counts] = await t.sql<{ created: string; subscribed: string; items: string }>(
      `SELECT (SELECT count(DISTINCT a.issue_id) FROM issue_activities a WHERE a.project_id = $1 AND a.verb = 'created' AND a.comment = 'created the issue') AS created,
        (SELECT count(*) FROM issue_activities a WHERE a.project_id = $1 AND a.verb = 'created') AS items,
        (SELECT count(*) FROM issue_subscribers s WHERE s.project_id = $1) AS subscribed`,
      [pr.id],
    );
    assert.deepEqual([Number(counts.created), Number(counts.items), Number(counts.subscribed)], [100, 100, 100]);
    const last = results.find((r) => r.body.sequence_id === 100)!;
    await t.api.delete(p(`work-items/${last.body.id}/`, pr.id)).set('X-API-Key', key);
    const next = await t.api.post(p('work-items/', pr.id)).set('X-API-Key', key).send({ name: 'after delete' });
    assert.equal(next.body.sequence_id, 101);
  });

  it('parallel creates with one external_id: one 201, the others 409; a failed create leaves nothing and the next one works', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'RACE', name: 'Race' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        t.api
          .post(p('work-items/', pr.id))
          .set('X-API-Key', key)
          .send({ name: `r${n}`, external_id: 'R-1', external_source: 'jira' }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status).sort(),
      [201, ...Array(19).fill(409)],
      JSON.stringify(results.map((r) => r.body)),
    );
    const won = results.find((r) => r.status === 201)!;
    assert.equal(won.body.sequence_id, 1, 'a rolled-back create gives its number back');
    const [rows] = await t.sql<{ items: string; history: string; subs: string }>(
      `SELECT (SELECT count(*) FROM issues WHERE project_id = $1) AS items, (SELECT count(*) FROM issue_activities WHERE project_id = $1) AS history,
        (SELECT count(*) FROM issue_subscribers WHERE project_id = $1) AS subs`,
      [pr.id],
    );
    assert.deepEqual([Number(rows.items), Number(rows.history), Number(rows.subs)], [1, 1, 1]);
    const next = await t.api.post(p('work-items/', pr.id)).set('X-API-Key', key).send({ name: 'after the race' });
    assert.equal(next.status, 201, JSON.stringify(next.body));
    assert.equal(next.body.sequence_id, 2);
    assert.equal(next.body.sort_order, 75535);
  });

  /**
   * Holds the project's counter row from another connection, so that the next create waits on the
   * lock (its batch of one) and the creates after it queue in this process for the next batch
   * (`IssueCreateBatcher`): `first` is sent, and once it waits on the lock, `send`'s creates, and
   * the lock is released when all of those are queued.
   */
  async function withCounterHeld<T>(
    projectId: string,
    send: () => Array<Promise<T>>,
    first: () => Promise<T>,
  ): Promise<{ first: T; queued: T[] }> {
    await t.sql(
      'INSERT INTO project_issue_counters (project_id, last_sequence) VALUES ($1, 0) ON CONFLICT DO NOTHING',
      [projectId],
    );
    const blocker = t.database.dataSource.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query('SELECT 1 FROM project_issue_counters WHERE project_id = $1 FOR UPDATE', [projectId]);
    const batcher = t.app.get(IssueCreateBatcher);
    let firstDone: Promise<T>;
    let rest: Array<Promise<T>>;
    try {
      firstDone = first();
      for (let waited = 0; ; waited += 20) {
        const [{ n }] = await t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (n === 1) break;
        assert.ok(waited < 10_000, 'the first create never reached the lock');
        await new Promise((r) => setTimeout(r, 20));
      }
      rest = send();
      for (let waited = 0; batcher.queued(projectId) < rest.length; waited += 20) {
        assert.ok(
          waited < 10_000,
          `only ${batcher.queued(projectId)} of ${rest.length} creates queued behind the first`,
        );
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await blocker.commitTransaction();
      await blocker.release();
    }
    return { first: await firstDone, queued: await Promise.all(rest) };
  }

  it(
    'creates queued behind a create that holds the counter are written in one transaction: consecutive numbers and sort orders, in queue order',
    { skip: ENGINE !== 'postgres' ? 'PostgreSQL only (holding the lock needs a second connection)' : false },
    async () => {
      const pr = await createProject(t, key, ws.slug, { identifier: 'BAT', name: 'Batch' });
      assert.equal(
        (await t.api.post(p('work-items/', pr.id)).set('X-API-Key', key).send({ name: 'zero' })).status,
        201,
      );
      const create = (name: string) =>
        t.api
          .post(p('work-items/', pr.id))
          .set('X-API-Key', key)
          .send({ name })
          .then((r) => r);
      const { first, queued } = await withCounterHeld(
        pr.id,
        () => Array.from({ length: 8 }, (_, n) => create(`b${n}`)),
        () => create('first'),
      );
      for (const r of [first, ...queued]) assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(first.body.sequence_id, 2);
      const bySeq = [...queued].sort((x, y) => x.body.sequence_id - y.body.sequence_id);
      assert.deepEqual(
        bySeq.map((r) => r.body.sequence_id),
        [3, 4, 5, 6, 7, 8, 9, 10],
      );
      assert.deepEqual(
        bySeq.map((r) => r.body.sort_order),
        Array.from({ length: 8 }, (_, n) => 65535 + (n + 2) * 10000),
      );
      // one transaction wrote the eight queued work items (one xmin), another the first
      const tx = await t.sql<{ name: string; tx: string }>(
        'SELECT name, xmin::text AS tx FROM issues WHERE project_id = $1',
        [pr.id],
      );
      const txOf = new Map(tx.map((r) => [r.name, r.tx]));
      assert.equal(
        new Set(queued.map((r) => txOf.get(r.body.name))).size,
        1,
        'the queued creates were not written as one batch',
      );
      assert.notEqual(txOf.get('first'), txOf.get('b0'));
      // each has its own history row, subscription and response body as a single create gives it
      const [counts] = await t.sql<{ history: number; subs: number }>(
        `SELECT (SELECT count(*)::int FROM issue_activities WHERE project_id = $1 AND verb = 'created') AS history,
          (SELECT count(*)::int FROM issue_subscribers WHERE project_id = $1) AS subs`,
        [pr.id],
      );
      assert.deepEqual([counts.history, counts.subs], [10, 10]);
      const one = await t.api.get(p(`work-items/${bySeq[0].body.id}/`, pr.id)).set('X-API-Key', key);
      assert.deepEqual(one.body, bySeq[0].body);
    },
  );

  it(
    'a create that fails inside a batch fails alone: the others are written one by one with no gap in the numbers; connections stay usable',
    { skip: ENGINE !== 'postgres' ? 'PostgreSQL only (holding the lock needs a second connection)' : false },
    async () => {
      const pr = await createProject(t, key, ws.slug, { identifier: 'BATF', name: 'Batch failure' });
      const create = (body: object) =>
        t.api
          .post(p('work-items/', pr.id))
          .set('X-API-Key', key)
          .send(body)
          .then((r) => r);
      const dup = { external_id: 'D-1', external_source: 'jira' };
      // two queued creates with one external_id: both pass the check before the lock, the second in the batch fails
      const { first, queued } = await withCounterHeld(
        pr.id,
        () => [
          create({ name: 'q0' }),
          create({ name: 'q1', ...dup }),
          create({ name: 'q2' }),
          create({ name: 'q3', ...dup }),
          create({ name: 'q4' }),
        ],
        () => create({ name: 'first' }),
      );
      assert.equal(first.status, 201);
      const statuses = queued.map((r) => r.status);
      assert.deepEqual(
        [statuses[0], statuses[2], statuses[4]],
        [201, 201, 201],
        JSON.stringify(queued.map((r) => r.body)),
      );
      assert.deepEqual([statuses[1], statuses[3]].sort(), [201, 409]);
      assertError(queued[statuses[1] === 409 ? 1 : 3], 409, 'EXTERNAL_ID_TAKEN');
      const seqs = [first, ...queued]
        .filter((r) => r.status === 201)
        .map((r) => r.body.sequence_id as number)
        .sort((x, y) => x - y);
      assert.deepEqual(seqs, [1, 2, 3, 4, 5], 'the failed create used no number');
      // every creator queued on the lock with the external_id of the first: the first wins, the batch behind it fails, each alone gets 409
      const again = await withCounterHeld(
        pr.id,
        () =>
          Array.from({ length: 4 }, (_, n) => create({ name: `r${n}`, external_id: 'Q-1', external_source: 'jira' })),
        () => create({ name: 'holder', external_id: 'Q-1', external_source: 'jira' }),
      );
      assert.equal(again.first.status, 201, JSON.stringify(again.first.body));
      assert.equal(again.first.body.sequence_id, 6);
      assert.deepEqual(
        again.queued.map((r) => r.status),
        [409, 409, 409, 409],
      );
      const more = await Promise.all(Array.from({ length: 12 }, (_, n) => create({ name: `m${n}` })));
      assert.deepEqual(
        more.map((r) => r.body.sequence_id as number).sort((x, y) => x - y),
        Array.from({ length: 12 }, (_, n) => n + 7),
      );
      const [rows] = await t.sql<{ items: number; history: number; subs: number }>(
        `SELECT (SELECT count(*)::int FROM issues WHERE project_id = $1) AS items, (SELECT count(*)::int FROM issue_activities WHERE project_id = $1) AS history,
          (SELECT count(*)::int FROM issue_subscribers WHERE project_id = $1) AS subs`,
        [pr.id],
      );
      assert.deepEqual([rows.items, rows.history, rows.subs], [18, 18, 18]);
    },
  );

  it('the list total counts exactly the visible work items (not drafts, archived, deleted or other projects); filters narrow it', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'TOT', name: 'Totals' });
    const other = await createProject(t, key, ws.slug, { identifier: 'TOT2', name: 'Totals 2' });
    const made = [];
    for (let n = 0; n < 7; n++)
      made.push(
        (
          await t.api
            .post(p('work-items/', pr.id))
            .set('X-API-Key', key)
            .send({ name: `t${n}`, priority: n < 2 ? 'high' : 'low' })
        ).body,
      );
    await t.api.post(p('work-items/', other.id)).set('X-API-Key', key).send({ name: 'elsewhere' });
    await t.api.post(p('work-items/', pr.id)).set('X-API-Key', key).send({ name: 'draft', is_draft: true });
    await t.sql('UPDATE issues SET archived_at = CURRENT_DATE WHERE id = $1', [made[5].id]);
    assert.equal((await t.api.delete(p(`work-items/${made[6].id}/`, pr.id)).set('X-API-Key', key)).status, 204);
    const page = await t.api.get(p('work-items/?per_page=2', pr.id)).set('X-API-Key', key);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(page.body.total_count, 5);
    assert.equal(page.body.total_results, 5);
    assert.equal(page.body.total_pages, 3);
    const high = await t.api.get(p('work-items/?per_page=1&priority=high', pr.id)).set('X-API-Key', key);
    assert.equal(high.body.total_count, 2);
    // walking the pages, also across rows sharing one created_at, gives each visible row once
    await t.sql('UPDATE issues SET created_at = $2 WHERE project_id = $1', [pr.id, '2026-01-01T00:00:00Z']);
    const seen: string[] = [];
    let cursor = '';
    for (let guard = 0; guard < 10; guard++) {
      const res = await t.api
        .get(p(`work-items/?per_page=2${cursor ? `&cursor=${cursor}` : ''}`, pr.id))
        .set('X-API-Key', key);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.total_count, 5);
      seen.push(...res.body.results.map((r: { id: string }) => r.id));
      if (!res.body.next_cursor) break;
      cursor = res.body.next_cursor;
    }
    assert.deepEqual(
      [...seen].sort(),
      made
        .slice(0, 5)
        .map((i) => i.id)
        .sort(),
    );
  });

  it('lookup by {IDENT}-{seq} under both families; search/ is not swallowed', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'KEY', name: 'Keys' });
    const a = (await t.api.post(p('issues/', pr.id)).set('X-API-Key', key).send({ name: 'Findable widget' })).body;
    for (const fam of ['issues', 'work-items']) {
      const res = await t.api.get(w(`${fam}/KEY-${a.sequence_id}/?expand=state`)).set('X-API-Key', key);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, a.id);
      assert.equal(res.body.state.name, 'Backlog');
      assertError(await t.api.get(w(`${fam}/KEY-999/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
      assertError(await t.api.get(w(`${fam}/NOPE-1/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
      assertError(await t.api.get(w(`${fam}/KEY-x/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
      const s = await t.api.get(w(`${fam}/search/?search=widget`)).set('X-API-Key', key);
      assert.equal(s.status, 200, JSON.stringify(s.body));
      assert.deepEqual(s.body.issues, [
        {
          id: a.id,
          name: 'Findable widget',
          sequence_id: a.sequence_id,
          project__identifier: 'KEY',
          project_id: pr.id,
          workspace__slug: ws.slug,
        },
      ]);
    }
    const byKey = await t.api.get(w(`work-items/search/?search=KEY-${a.sequence_id}`)).set('X-API-Key', key);
    assert.deepEqual(
      byKey.body.issues.map((x: { id: string }) => x.id),
      [a.id],
    );
    const scoped = await t.api.get(w(`work-items/search/?search=widget&project=${project.id}`)).set('X-API-Key', key);
    assert.deepEqual(scoped.body.issues, []);
    // a key of a project the caller is not a member of is a 404
    const outsider = await member(15, null);
    assertError(await t.api.get(w(`issues/KEY-${a.sequence_id}/`)).set('X-API-Key', outsider.key), 404, 'NOT_FOUND');
    assert.deepEqual(
      (await t.api.get(w('issues/search/?search=widget')).set('X-API-Key', outsider.key)).body.issues,
      [],
    );
  });

  it('delete: creator or project Admin only; guests cannot write; non-members of a secret project get 404', async () => {
    const m = await member(15, 15);
    const mine = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'owner’s' })).body;
    assertError(await t.api.delete(p(`issues/${mine.id}/`)).set('X-API-Key', m.key), 403, 'PERMISSION_DENIED');
    const theirs = (await t.api.post(p('issues/')).set('X-API-Key', m.key).send({ name: 'member’s' })).body;
    assert.equal(theirs.created_by, m.userId);
    assert.equal((await t.api.delete(p(`issues/${theirs.id}/`)).set('X-API-Key', m.key)).status, 204);
    const acts = await t.sql<{ verb: string; field: string; actor_id: string }>(
      'SELECT verb, field, actor_id FROM issue_activities WHERE issue_id = $1 ORDER BY created_at',
      [theirs.id],
    );
    assert.deepEqual(
      acts.map((a) => [a.verb, a.field, a.actor_id]),
      [
        ['created', null, m.userId],
        ['deleted', 'issue', m.userId],
      ],
    );
    const g = await member(5, 5);
    assert.equal((await t.api.get(p('issues/')).set('X-API-Key', g.key)).status, 200);
    assertError(await t.api.post(p('issues/')).set('X-API-Key', g.key).send({ name: 'g' }), 403, 'PERMISSION_DENIED');
    const secret = await createProject(t, key, ws.slug, { identifier: 'SEC', name: 'Secret', network: 0 });
    assertError(await t.api.get(p('issues/', secret.id)).set('X-API-Key', m.key), 404, 'PROJECT_NOT_FOUND');
    // an issue id of another project is a 404
    const elsewhere = (await t.api.post(p('issues/', secret.id)).set('X-API-Key', key).send({ name: 'x' })).body;
    assertError(await t.api.get(p(`issues/${elsewhere.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.get(p(`issues/${elsewhere.id}/comments/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.get(p('issues/not-a-uuid/')).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('parents: no self or cycle; archived project hides its work items', async () => {
    const a = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'pa' })).body;
    const b = (await t.api.post(p('issues/')).set('X-API-Key', key).send({ name: 'pb', parent: a.id })).body;
    assertError(
      await t.api
        .patch(p(`issues/${a.id}/`))
        .set('X-API-Key', key)
        .send({ parent: b.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .patch(p(`issues/${a.id}/`))
        .set('X-API-Key', key)
        .send({ parent: a.id }),
      422,
      'VALIDATION_ERROR',
    );
    const upd = await t.api
      .patch(p(`issues/${b.id}/`))
      .set('X-API-Key', key)
      .send({ parent: null });
    assert.equal(upd.body.parent, null);
    const acts = (await t.api.get(p(`issues/${b.id}/activities/`)).set('X-API-Key', key)).body.results;
    const pa = acts.find((x: { field: string }) => x.field === 'parent');
    assert.equal(pa.old_value, `WI-${a.sequence_id}`);
    assert.equal(pa.old_identifier, a.id);
    const pr = await createProject(t, key, ws.slug, { identifier: 'ARCH', name: 'Archived' });
    const it1 = (await t.api.post(p('issues/', pr.id)).set('X-API-Key', key).send({ name: 'hidden later' })).body;
    await t.api.post(`/api/v1/workspaces/${ws.slug}/projects/${pr.id}/archive/`).set('X-API-Key', key);
    assert.equal((await t.api.get(p('issues/', pr.id)).set('X-API-Key', key)).body.total_results, 0);
    assertError(await t.api.get(p(`issues/${it1.id}/`, pr.id)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });
});
