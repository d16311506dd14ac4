import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, assertError, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('External API v1: /api/v1/workspaces/{slug}/projects/', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let ws: { id: string; slug: string };
  let key: string;
  before(async () => {
    t = await startTestApp();
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
  });
  after(() => t.close());

  it('creates a project with 201, Plane’s fields, the creator as project Admin and five default states', async () => {
    const res = await t.api
      .post(`/api/v1/workspaces/${ws.slug}/projects/`)
      .set('X-API-Key', key)
      .send({ name: 'Website', identifier: '  web ', description: 'Public site' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const p = res.body;
    assert.equal(p.identifier, 'WEB');
    assert.equal(p.name, 'Website');
    assert.equal(p.description, 'Public site');
    assert.equal(p.workspace, ws.id);
    assert.equal(p.network, 2);
    assert.equal(p.intake_view, false);
    assert.equal(p.module_view, true);
    assert.equal(p.is_member, true);
    assert.equal(p.member_role, 20);
    assert.equal(p.total_members, 1);
    assert.equal(p.created_by, owner.userId);
    const states = await t.sql<{ name: string; group: string; default: boolean; color: string; sequence: number }>(
      'SELECT name, "group", "default", color, sequence FROM states WHERE project_id = $1 ORDER BY sequence',
      [p.id],
    );
    assert.deepEqual(
      states.map((s) => [s.name, s.group, s.default, s.color, Number(s.sequence)]),
      [
        ['Backlog', 'backlog', true, '#A3A3A3', 15000],
        ['Todo', 'unstarted', false, '#3A3A3A', 25000],
        ['In Progress', 'started', false, '#F59E0B', 35000],
        ['Done', 'completed', false, '#16A34A', 45000],
        ['Cancelled', 'cancelled', false, '#EF4444', 55000],
      ],
    );
    const members = await t.sql<{ member_id: string; role: number }>(
      'SELECT member_id, role FROM project_members WHERE project_id = $1',
      [p.id],
    );
    assert.deepEqual(members, [{ member_id: owner.userId, role: 20 }]);
  });

  it('refuses a taken identifier (after trimming and upper-casing) or name with 409, and writes nothing', async () => {
    await createProject(t, key, ws.slug, { identifier: 'DUP', name: 'Dup one' });
    assertError(
      await t.api
        .post(`/api/v1/workspaces/${ws.slug}/projects/`)
        .set('X-API-Key', key)
        .send({ name: 'Other', identifier: ' dup' }),
      409,
      'PROJECT_IDENTIFIER_TAKEN',
    );
    assertError(
      await t.api
        .post(`/api/v1/workspaces/${ws.slug}/projects/`)
        .set('X-API-Key', key)
        .send({ name: 'Dup one', identifier: 'DUP2' }),
      409,
      'PROJECT_NAME_TAKEN',
    );
    const rows = await t.sql(`SELECT 1 FROM projects WHERE identifier = 'DUP2'`);
    assert.equal(rows.length, 0);
    const states = await t.sql(`SELECT 1 FROM states s LEFT JOIN projects p ON p.id = s.project_id WHERE p.id IS NULL`);
    assert.equal(states.length, 0);
  });

  it('validates input with 422: missing fields, identifier over 12, unknown fields, bad network', async () => {
    const path = `/api/v1/workspaces/${ws.slug}/projects/`;
    for (const [body, field] of [
      [{ identifier: 'NONAME' }, 'name'],
      [{ name: 'No identifier' }, 'identifier'],
      [{ name: 'Long', identifier: 'ABCDEFGHIJKLM' }, 'identifier'],
      [{ name: 'Blank', identifier: '   ' }, 'identifier'],
      [{ name: 'Extra', identifier: 'EXT', workspace: ws.id }, 'workspace'],
      [{ name: 'Net', identifier: 'NET', network: 1 }, 'network'],
      [{ name: 'Lead', identifier: 'LEAD', project_lead: 'nope' }, 'project_lead'],
    ] as const) {
      const res = await t.api.post(path).set('X-API-Key', key).send(body);
      const err = assertError(res, 422, 'VALIDATION_ERROR');
      assert.ok((err.errors as Record<string, unknown>)[field], `${JSON.stringify(body)} → ${JSON.stringify(err)}`);
    }
  });

  it('lists projects in the page envelope; secret projects only for their members', async () => {
    const other = await signUp(t);
    await addMember(t, ws.id, other.userId, 15);
    const secret = await createProject(t, key, ws.slug, { identifier: 'SEC', name: 'Secret', network: 0 });
    const open = await createProject(t, key, ws.slug, { identifier: 'OPEN', name: 'Open' });
    // the other member creates a key of their own (Admins only: promote them first)
    await t.sql('UPDATE workspace_members SET role = 20 WHERE member_id = $1', [other.userId]);
    const theirKey = await createApiKey(t, other.token, ws.slug);
    const seen = await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/`).set('X-API-Key', theirKey);
    assert.equal(seen.status, 200);
    const ids = seen.body.results.map((p: { id: string }) => p.id);
    assert.ok(ids.includes(open.id));
    assert.ok(!ids.includes(secret.id));
    const mine = await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/`).set('X-API-Key', key);
    assert.ok(mine.body.results.some((p: { id: string }) => p.id === secret.id));
    assert.equal(mine.body.total_results, mine.body.results.length);
  });

  it('refuses project creation to workspace Guests with 403', async () => {
    const guest = await signUp(t);
    await addMember(t, ws.id, guest.userId, 20);
    const guestKey = await createApiKey(t, guest.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = 5 WHERE member_id = $1', [guest.userId]);
    assertError(
      await t.api
        .post(`/api/v1/workspaces/${ws.slug}/projects/`)
        .set('X-API-Key', guestKey)
        .send({ name: 'G', identifier: 'G' }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('needs an API key: none 401, unknown 401, a Bearer token is not one', async () => {
    const path = `/api/v1/workspaces/${ws.slug}/projects/`;
    assertError(await t.api.get(path), 401, 'AUTHENTICATION_REQUIRED');
    assertError(
      await t.api.get(path).set('X-API-Key', 'plane_api_00000000000000000000000000000000'),
      401,
      'INVALID_API_KEY',
    );
    assertError(await t.api.get(path).auth(owner.token, { type: 'bearer' }), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('serves the path without a trailing slash and accepts an empty JSON body on GET', async () => {
    const res = await t.api
      .get(`/api/v1/workspaces/${ws.slug}/projects`)
      .set('X-API-Key', key)
      .set('Content-Type', 'application/json');
    assert.equal(res.status, 200);
  });
});
