import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: project detail, update, delete, archive', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  const base = () => `/api/v1/workspaces/${ws.slug}/projects`;
  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
  });
  after(() => t.close());

  /** a second workspace member with their own key and workspace role */
  async function member(role: number) {
    const u = await signUp(t);
    await addMember(t, ws.id, u.userId, 20);
    const k = await createApiKey(t, u.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = $1 WHERE member_id = $2', [role, u.userId]);
    return { ...u, key: k };
  }

  it('retrieves a project with Plane’s fields; fields= keeps only the named keys', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'RET', name: 'Retrieve me' });
    const res = await t.api.get(`${base()}/${p.id}/`).set('X-API-Key', key);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, p.id);
    assert.equal(res.body.identifier, 'RET');
    assert.equal(res.body.is_member, true);
    assert.equal(res.body.member_role, 20);
    assert.equal(res.body.archived_at, null);
    assert.ok(!('sort_order' in res.body));
    const picked = await t.api.get(`${base()}/${p.id}/?fields=id,name,nope`).set('X-API-Key', key);
    assert.deepEqual(picked.body, { id: p.id, name: 'Retrieve me' });
  });

  it('a non-UUID or foreign project id is a 404; a secret project is invisible to non-members', async () => {
    assertError(await t.api.get(`${base()}/not-a-uuid/`).set('X-API-Key', key), 404, 'PROJECT_NOT_FOUND');
    assertError(
      await t.api.get(`${base()}/00000000-0000-4000-8000-000000000000/`).set('X-API-Key', key),
      404,
      'PROJECT_NOT_FOUND',
    );
    const secret = await createProject(t, key, ws.slug, { identifier: 'HID', name: 'Hidden', network: 0 });
    const other = await member(15);
    assertError(await t.api.get(`${base()}/${secret.id}/`).set('X-API-Key', other.key), 404, 'PROJECT_NOT_FOUND');
    // a public project is readable by every workspace member
    const open = await createProject(t, key, ws.slug, { identifier: 'PUB', name: 'Public one' });
    const seen = await t.api.get(`${base()}/${open.id}/`).set('X-API-Key', other.key);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.is_member, false);
    assert.equal(seen.body.member_role, null);
    // another workspace's project is a 404 too
    const stranger = await signUp(t);
    const ws2 = await createWorkspace(t, stranger.token);
    const key2 = await createApiKey(t, stranger.token, ws2.slug);
    const theirs = await createProject(t, key2, ws2.slug, { identifier: 'THR', name: 'Theirs' });
    assertError(await t.api.get(`${base()}/${theirs.id}/`).set('X-API-Key', key), 404, 'PROJECT_NOT_FOUND');
  });

  it('PATCH updates fields, keeps 409 codes for taken identifier and name, and makes a new lead an Admin', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'UPD', name: 'Update me' });
    await createProject(t, key, ws.slug, { identifier: 'TAKEN', name: 'Taken name' });
    const lead = await member(15);
    const res = await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({
      name: 'Updated',
      description: 'New',
      network: 0,
      module_view: false,
      intake_view: true,
      project_lead: lead.userId,
      archive_in: 3,
      id: 'ignored',
      total_members: 99,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Updated');
    assert.equal(res.body.description, 'New');
    assert.equal(res.body.network, 0);
    assert.equal(res.body.module_view, false);
    assert.equal(res.body.intake_view, true);
    assert.equal(res.body.inbox_view, true);
    assert.equal(res.body.project_lead, lead.userId);
    assert.equal(res.body.archive_in, 3);
    assert.equal(res.body.id, p.id);
    assert.equal(res.body.total_members, 2);
    const rows = await t.sql<{ role: number }>(
      'SELECT role FROM project_members WHERE project_id = $1 AND member_id = $2',
      [p.id, lead.userId],
    );
    assert.deepEqual(
      rows.map((r) => Number(r.role)),
      [20],
    );
    const ident = await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ identifier: 'taken' });
    assertError(ident, 409, 'PROJECT_IDENTIFIER_TAKEN');
    assertError(
      await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ name: 'Taken name' }),
      409,
      'PROJECT_NAME_TAKEN',
    );
    const err = assertError(
      await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ archive_in: 13, default_state: 'x' }),
      422,
      'VALIDATION_ERROR',
    );
    assert.ok((err.errors as Record<string, unknown>).archive_in);
    assert.ok((err.errors as Record<string, unknown>).default_state);
    const outsider = await signUp(t);
    const err2 = assertError(
      await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ default_assignee: outsider.userId }),
      422,
      'VALIDATION_ERROR',
    );
    assert.ok((err2.errors as Record<string, unknown>).default_assignee);
  });

  it('default_state must be a state of the project', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'DST', name: 'Default state' });
    const other = await createProject(t, key, ws.slug, { identifier: 'DST2', name: 'Default state 2' });
    const [mine] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Todo'`, [p.id]);
    const [theirs] = await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND name = 'Todo'`, [
      other.id,
    ]);
    const ok = await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ default_state: mine.id });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.default_state, mine.id);
    assertError(
      await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ default_state: theirs.id }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('only project Admins update, delete and unarchive; project Members archive (Plane); project Guests and non-members may not', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'PERM', name: 'Perm', network: 2 });
    const m = await member(15);
    const guest = await member(15);
    const outsider = await member(15);
    await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, 15)', [
      ws.id,
      p.id,
      m.userId,
    ]);
    await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, 5)', [
      ws.id,
      p.id,
      guest.userId,
    ]);
    assertError(
      await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', m.key).send({ name: 'x' }),
      403,
      'PERMISSION_DENIED',
    );
    assertError(await t.api.delete(`${base()}/${p.id}/`).set('X-API-Key', m.key), 403, 'PERMISSION_DENIED');
    // Plane's v1 lets any workspace Admin or Member archive; here the project's Guests and the
    // workspace Members outside the project (the project is public, so they can see it) may not
    assertError(await t.api.post(`${base()}/${p.id}/archive/`).set('X-API-Key', guest.key), 403, 'PERMISSION_DENIED');
    assertError(
      await t.api.post(`${base()}/${p.id}/archive/`).set('X-API-Key', outsider.key),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal(
      (await t.sql<{ archived_at: unknown }>('SELECT archived_at FROM projects WHERE id = $1', [p.id]))[0].archived_at,
      null,
    );
    const archived = await t.api.post(`${base()}/${p.id}/archive/`).set('X-API-Key', m.key);
    assert.equal(archived.status, 204, JSON.stringify(archived.body));
    assert.ok(
      (await t.sql<{ archived_at: unknown }>('SELECT archived_at FROM projects WHERE id = $1', [p.id]))[0].archived_at,
    );
    // unarchive stays with project Admins, as in Plane's v1
    assertError(await t.api.delete(`${base()}/${p.id}/archive/`).set('X-API-Key', m.key), 403, 'PERMISSION_DENIED');
    assert.equal((await t.api.delete(`${base()}/${p.id}/archive/`).set('X-API-Key', key)).status, 204);
  });

  it('a workspace Admin who is not a project member archives a project (Plane: any workspace Admin)', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'WSA', name: 'Workspace admin archive' });
    const admin = await member(20);
    assert.equal((await t.api.post(`${base()}/${p.id}/archive/`).set('X-API-Key', admin.key)).status, 204);
    assert.ok(
      (await t.sql<{ archived_at: unknown }>('SELECT archived_at FROM projects WHERE id = $1', [p.id]))[0].archived_at,
    );
  });

  it('archives (empty JSON body) and unarchives with 204; an archived project cannot be patched but is still listed', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'ARC', name: 'Archive me' });
    const arch = await t.api
      .post(`${base()}/${p.id}/archive/`)
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json');
    assert.equal(arch.status, 204, JSON.stringify(arch.body));
    const got = await t.api.get(`${base()}/${p.id}/`).set('X-API-Key', key);
    assert.ok(got.body.archived_at);
    assertError(
      await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ name: 'No' }),
      400,
      'PROJECT_ARCHIVED',
    );
    const list = await t.api.get(`${base()}/`).set('X-API-Key', key);
    assert.ok(list.body.results.some((x: { id: string }) => x.id === p.id));
    const un = await t.api.delete(`${base()}/${p.id}/archive`).set('X-API-Key', key);
    assert.equal(un.status, 204);
    const again = await t.api.get(`${base()}/${p.id}/`).set('X-API-Key', key);
    assert.equal(again.body.archived_at, null);
    assert.equal((await t.api.patch(`${base()}/${p.id}/`).set('X-API-Key', key).send({ name: 'Yes' })).status, 200);
  });

  it('DELETE soft-deletes: 204, then 404, gone from the list, and identifier and name are free again', async () => {
    const p = await createProject(t, key, ws.slug, { identifier: 'DEL', name: 'Delete me' });
    const res = await t.api.delete(`${base()}/${p.id}/`).set('X-API-Key', key);
    assert.equal(res.status, 204);
    assertError(await t.api.get(`${base()}/${p.id}/`).set('X-API-Key', key), 404, 'PROJECT_NOT_FOUND');
    assertError(await t.api.get(`${base()}/${p.id}/states/`).set('X-API-Key', key), 404, 'PROJECT_NOT_FOUND');
    const list = await t.api.get(`${base()}/`).set('X-API-Key', key);
    assert.ok(!list.body.results.some((x: { id: string }) => x.id === p.id));
    const [row] = await t.sql<{ deleted_at: Date | null }>('SELECT deleted_at FROM projects WHERE id = $1', [p.id]);
    assert.ok(row.deleted_at);
    const again = await createProject(t, key, ws.slug, { identifier: 'DEL', name: 'Delete me' });
    assert.notEqual(again.id, p.id);
  });
});
