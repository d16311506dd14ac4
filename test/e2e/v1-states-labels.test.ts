import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: states and labels', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  const p = (path: string, pid = project.id) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug, { identifier: 'ST', name: 'States' });
  });
  after(() => t.close());

  it('lists the five default states by sequence in the envelope; fields= applies', async () => {
    const res = await t.api.get(p('states/')).set('X-API-Key', key);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.total_results, 5);
    assert.deepEqual(
      res.body.results.map((s: { name: string }) => s.name),
      ['Backlog', 'Todo', 'In Progress', 'Done', 'Cancelled'],
    );
    const backlog = res.body.results[0];
    assert.equal(backlog.default, true);
    assert.equal(backlog.group, 'backlog');
    assert.equal(backlog.project, project.id);
    assert.equal(backlog.workspace, ws.id);
    const picked = await t.api.get(p('states/?fields=name,group')).set('X-API-Key', key);
    assert.deepEqual(picked.body.results[1], { name: 'Todo', group: 'unstarted' });
    const paged = await t.api.get(p('states/?per_page=2')).set('X-API-Key', key);
    assert.equal(paged.body.results.length, 2);
    const next = await t.api.get(p(`states/?per_page=2&cursor=${paged.body.next_cursor}`)).set('X-API-Key', key);
    assert.deepEqual(
      next.body.results.map((s: { name: string }) => s.name),
      ['In Progress', 'Done'],
    );
  });

  it('creates a state: sequence after the last, slug from the name, 201; name clash 409 with the id', async () => {
    const res = await t.api
      .post(p('states/'))
      .set('X-API-Key', key)
      .send({ name: 'In Review', color: '#123456', group: 'started', slug: 'ignored' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.sequence, 55000 + 15000);
    assert.equal(res.body.slug, 'in-review');
    assert.equal(res.body.default, false);
    const dup = assertError(
      await t.api.post(p('states/')).set('X-API-Key', key).send({ name: 'In Review', color: '#000' }),
      409,
      'STATE_NAME_TAKEN',
    );
    assert.equal(dup.id, res.body.id);
    const bad = assertError(
      await t.api.post(p('states/')).set('X-API-Key', key).send({ name: 'X', group: 'nope' }),
      422,
      'VALIDATION_ERROR',
    );
    assert.ok((bad.errors as Record<string, unknown>).color);
    assert.ok((bad.errors as Record<string, unknown>).group);
    const ext = await t.api
      .post(p('states/'))
      .set('X-API-Key', key)
      .send({ name: 'Ext', color: '#1', external_id: 'e1', external_source: 'jira' });
    assert.equal(ext.status, 201);
    const clash = assertError(
      await t.api
        .post(p('states/'))
        .set('X-API-Key', key)
        .send({ name: 'Ext2', color: '#1', external_id: 'e1', external_source: 'jira' }),
      409,
      'EXTERNAL_ID_TAKEN',
    );
    assert.equal(clash.id, ext.body.id);
  });

  it('the default rule: a new default clears the old one (on create and on update); the default cannot be deleted', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'DEF', name: 'Defaults' });
    const created = await t.api
      .post(p('states/', pr.id))
      .set('X-API-Key', key)
      .send({ name: 'Triage-ish', color: '#1', default: true });
    assert.equal(created.body.default, true);
    let defaults = await t.sql<{ id: string }>(
      'SELECT id FROM states WHERE project_id = $1 AND "default" AND deleted_at IS NULL',
      [pr.id],
    );
    assert.deepEqual(
      defaults.map((d) => d.id),
      [created.body.id],
    );
    const [todo] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Todo'`, [
      pr.id,
    ]);
    const upd = await t.api
      .patch(p(`states/${todo.id}/`, pr.id))
      .set('X-API-Key', key)
      .send({ default: true });
    assert.equal(upd.status, 200);
    defaults = await t.sql<{ id: string }>(
      'SELECT id FROM states WHERE project_id = $1 AND "default" AND deleted_at IS NULL',
      [pr.id],
    );
    assert.deepEqual(
      defaults.map((d) => d.id),
      [todo.id],
    );
    assertError(
      await t.api.delete(p(`states/${todo.id}/`, pr.id)).set('X-API-Key', key),
      400,
      'DEFAULT_STATE_NOT_DELETABLE',
    );
  });

  it('updates a state; a rename onto another name is 409; a state in use cannot be deleted; delete is soft', async () => {
    const a = await t.api.post(p('states/')).set('X-API-Key', key).send({ name: 'A state', color: '#1' });
    const b = await t.api.post(p('states/')).set('X-API-Key', key).send({ name: 'B state', color: '#2' });
    const upd = await t.api
      .patch(p(`states/${a.body.id}/`))
      .set('X-API-Key', key)
      .send({ name: 'A renamed', color: '#999', description: 'd' });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.name, 'A renamed');
    assert.equal(upd.body.slug, 'a-renamed');
    assert.equal(upd.body.color, '#999');
    assertError(
      await t.api
        .patch(p(`states/${a.body.id}/`))
        .set('X-API-Key', key)
        .send({ name: 'B state' }),
      409,
      'STATE_NAME_TAKEN',
    );
    const item = await t.api.post(p('work-items/')).set('X-API-Key', key).send({ name: 'uses B', state: b.body.id });
    assert.equal(item.status, 201, JSON.stringify(item.body));
    assertError(await t.api.delete(p(`states/${b.body.id}/`)).set('X-API-Key', key), 400, 'STATE_NOT_EMPTY');
    const del = await t.api.delete(p(`states/${a.body.id}/`)).set('X-API-Key', key);
    assert.equal(del.status, 204);
    assertError(await t.api.get(p(`states/${a.body.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    // the name is free again
    assert.equal(
      (await t.api.post(p('states/')).set('X-API-Key', key).send({ name: 'A renamed', color: '#1' })).status,
      201,
    );
  });

  it('state ids: not a UUID, or of another project → 404', async () => {
    const other = await createProject(t, key, ws.slug, { identifier: 'OTH', name: 'Other' });
    const [s] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 LIMIT 1`, [other.id]);
    assertError(await t.api.get(p('states/nope/')).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(await t.api.get(p(`states/${s.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
    assertError(
      await t.api
        .patch(p(`states/${s.id}/`))
        .set('X-API-Key', key)
        .send({ name: 'z' }),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(p(`states/${s.id}/`)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('labels: create with sort_order max + 10000, parents of the same project, unique names, newest first', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'LBL', name: 'Labels' });
    const a = await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'bug', color: '#f00' });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(a.body.sort_order, 65535);
    assert.equal(a.body.parent, null);
    assert.equal(a.body.project, pr.id);
    const b = await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'ui bug', parent: a.body.id });
    assert.equal(b.status, 201);
    assert.equal(b.body.sort_order, 75535);
    assert.equal(b.body.parent, a.body.id);
    assert.equal(b.body.color, '');
    const dup = assertError(
      await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'bug' }),
      409,
      'LABEL_NAME_TAKEN',
    );
    assert.equal(dup.id, a.body.id);
    const foreign = await t.api.post(p('labels/')).set('X-API-Key', key).send({ name: 'elsewhere' });
    assertError(
      await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'child', parent: foreign.body.id }),
      422,
      'VALIDATION_ERROR',
    );
    const list = await t.api.get(p('labels/', pr.id)).set('X-API-Key', key);
    assert.deepEqual(
      list.body.results.map((l: { name: string }) => l.name),
      ['ui bug', 'bug'],
    );
    const one = await t.api.get(p(`labels/${a.body.id}/`, pr.id)).set('X-API-Key', key);
    assert.equal(one.body.name, 'bug');
    assertError(await t.api.get(p(`labels/${foreign.body.id}/`, pr.id)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('labels: update (no cycles), rename clash 409, delete is soft and detaches children and work items', async () => {
    const pr = await createProject(t, key, ws.slug, { identifier: 'LB2', name: 'Labels 2' });
    const a = (await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'a' })).body;
    const b = (await t.api.post(p('labels/', pr.id)).set('X-API-Key', key).send({ name: 'b', parent: a.id })).body;
    const upd = await t.api
      .patch(p(`labels/${a.id}/`, pr.id))
      .set('X-API-Key', key)
      .send({ name: 'a2', color: '#abc', description: 'x' });
    assert.equal(upd.status, 200);
    assert.equal(upd.body.name, 'a2');
    assert.equal(upd.body.color, '#abc');
    assertError(
      await t.api
        .patch(p(`labels/${a.id}/`, pr.id))
        .set('X-API-Key', key)
        .send({ parent: b.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .patch(p(`labels/${a.id}/`, pr.id))
        .set('X-API-Key', key)
        .send({ parent: a.id }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api
        .patch(p(`labels/${b.id}/`, pr.id))
        .set('X-API-Key', key)
        .send({ name: 'a2' }),
      409,
      'LABEL_NAME_TAKEN',
    );
    const item = await t.api
      .post(p('issues/', pr.id))
      .set('X-API-Key', key)
      .send({ name: 'labelled', labels: [a.id, b.id] });
    assert.deepEqual([...item.body.labels].sort(), [a.id, b.id].sort());
    assert.equal((await t.api.delete(p(`labels/${a.id}/`, pr.id)).set('X-API-Key', key)).status, 204);
    const child = await t.api.get(p(`labels/${b.id}/`, pr.id)).set('X-API-Key', key);
    assert.equal(child.body.parent, null);
    const after = await t.api.get(p(`issues/${item.body.id}/`, pr.id)).set('X-API-Key', key);
    assert.deepEqual(after.body.labels, [b.id]);
    assertError(await t.api.get(p(`labels/${a.id}/`, pr.id)).set('X-API-Key', key), 404, 'NOT_FOUND');
  });

  it('guests may read states and labels but not write them', async () => {
    const g = await signUp(t);
    await addMember(t, ws.id, g.userId, 20);
    const gk = await createApiKey(t, g.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = 5 WHERE member_id = $1', [g.userId]);
    await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, 5)', [
      ws.id,
      project.id,
      g.userId,
    ]);
    assert.equal((await t.api.get(p('states/')).set('X-API-Key', gk)).status, 200);
    assert.equal((await t.api.get(p('labels/')).set('X-API-Key', gk)).status, 200);
    assertError(
      await t.api.post(p('states/')).set('X-API-Key', gk).send({ name: 'g', color: '#1' }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(await t.api.post(p('labels/')).set('X-API-Key', gk).send({ name: 'g' }), 403, 'PERMISSION_DENIED');
  });
});

describe('External API v1: users/me and members', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('users/me is the key’s user; members/, project members/ and project-members/ are bare arrays with roles', async () => {
    const owner = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    const key = await createApiKey(t, owner.token, ws.slug);
    const me = await t.api.get('/api/v1/users/me/').set('X-API-Key', key);
    assert.equal(me.status, 200);
    assert.equal(me.body.id, owner.userId);
    assert.equal(me.body.email, owner.email);
    assert.ok(!('password_hash' in me.body));
    assertError(await t.api.get('/api/v1/users/me'), 401, 'AUTHENTICATION_REQUIRED');

    const other = await signUp(t);
    await addMember(t, ws.id, other.userId, 15);
    const members = await t.api.get(`/api/v1/workspaces/${ws.slug}/members/`).set('X-API-Key', key);
    assert.equal(members.status, 200);
    assert.ok(Array.isArray(members.body));
    const byId = new Map<string, Record<string, unknown>>(members.body.map((m: { id: string }) => [m.id, m]));
    assert.equal((byId.get(owner.userId) as { role: number }).role, 20);
    assert.equal((byId.get(other.userId) as { role_slug: string }).role_slug, 'member');
    assert.deepEqual(Object.keys(byId.get(other.userId) as object).sort(), [
      'avatar',
      'avatar_url',
      'display_name',
      'email',
      'first_name',
      'id',
      'last_name',
      'role',
      'role_slug',
    ]);

    const pr = await createProject(t, key, ws.slug, { identifier: 'MEM', name: 'Members', project_lead: other.userId });
    for (const path of ['members/', 'project-members/', 'project-members']) {
      const res = await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/${pr.id}/${path}`).set('X-API-Key', key);
      assert.equal(res.status, 200, path);
      assert.ok(Array.isArray(res.body));
      assert.deepEqual(res.body.map((m: { id: string }) => m.id).sort(), [owner.userId, other.userId].sort());
      assert.ok(res.body.every((m: { role: number }) => m.role === 20));
    }
  });
});
