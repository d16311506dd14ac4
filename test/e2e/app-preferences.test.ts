import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * What Plane's web app loads at start-up and on every screen: home widgets, sidebar pins, quick
 * links, recent visits, the work item lists' display settings, the workspace-wide cycles, modules
 * and estimates, the caller's project roles, the last visited workspace and the time zones.
 */
describe('App API: preferences and start-up reads', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin
  let gus: SignedUp; // workspace Guest, project Guest
  let eve: SignedUp; // Admin of another workspace
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let project: { id: string };
  let secret: { id: string }; // a project Gus is not in
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    gus = await signUp(t);
    eve = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug);
    secret = await createAppProject(t, ada.token, ws.slug, { network: 0 });
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
  });
  after(() => t.close());

  it('home preferences: three widgets created on first read, then patched by key', async () => {
    const first = await t.api.get(`/api/workspaces/${ws.slug}/home-preferences/`).set(bearer(gus));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(first.body, [
      { key: 'quick_links', is_enabled: true, config: {}, sort_order: 999 },
      { key: 'recents', is_enabled: true, config: {}, sort_order: 998 },
      { key: 'my_stickies', is_enabled: true, config: {}, sort_order: 997 },
    ]);
    const again = await t.api.get(`/api/workspaces/${ws.slug}/home-preferences/`).set(bearer(gus));
    assert.equal(again.body.length, 3);
    const patched = await t.api
      .patch(`/api/workspaces/${ws.slug}/home-preferences/recents/`)
      .set(bearer(gus))
      .send({ is_enabled: false, sort_order: 1500 });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body, { key: 'recents', is_enabled: false, sort_order: 1500 });
    const after = await t.api.get(`/api/workspaces/${ws.slug}/home-preferences/`).set(bearer(gus));
    assert.equal(after.body[0].key, 'recents');
    // someone else's widgets are their own
    const mine = await t.api.get(`/api/workspaces/${ws.slug}/home-preferences/`).set(bearer(ada));
    assert.equal(mine.body.find((w: { key: string }) => w.key === 'recents').is_enabled, true);

    assertError(
      await t.api.patch(`/api/workspaces/${ws.slug}/home-preferences/new_at_plane/`).set(bearer(gus)).send({}),
      404,
      'NOT_FOUND',
    );
    const bad = await t.api
      .patch(`/api/workspaces/${ws.slug}/home-preferences/recents/`)
      .set(bearer(gus))
      .send({ is_enabled: 'yess' });
    assertError(bad, 422, 'VALIDATION_ERROR');
    assertError(
      await t.api.get(`/api/workspaces/${other.slug}/home-preferences/`).set(bearer(gus)),
      404,
      'WORKSPACE_NOT_FOUND',
    );
  });

  it('sidebar preferences: six entries keyed by name, pinned by PATCH', async () => {
    const first = await t.api.get(`/api/workspaces/${ws.slug}/sidebar-preferences/`).set(bearer(ada));
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, {
      views: { is_pinned: false, sort_order: 65535 },
      active_cycles: { is_pinned: false, sort_order: 75535 },
      analytics: { is_pinned: false, sort_order: 85535 },
      drafts: { is_pinned: false, sort_order: 95535 },
      your_work: { is_pinned: false, sort_order: 105535 },
      archives: { is_pinned: false, sort_order: 115535 },
    });
    const pin = await t.api
      .patch(`/api/workspaces/${ws.slug}/sidebar-preferences/analytics/`)
      .set(bearer(ada))
      .send({ is_pinned: true });
    assert.equal(pin.status, 200);
    assert.deepEqual(pin.body, { key: 'analytics', is_pinned: true, sort_order: 85535 });
    const read = await t.api.get(`/api/workspaces/${ws.slug}/sidebar-preferences/`).set(bearer(ada));
    assert.equal(read.body.analytics.is_pinned, true);
    assertError(
      await t.api
        .patch(`/api/workspaces/${ws.slug}/sidebar-preferences/nope/`)
        .set(bearer(ada))
        .send({ is_pinned: true }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api
        .patch(`/api/workspaces/${ws.slug}/sidebar-preferences/views/`)
        .set(bearer(ada))
        .send({ is_pinned: null }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('quick links: own list, http:// added, duplicates 409, bad URL 422, another user 404', async () => {
    const base = `/api/workspaces/${ws.slug}/quick-links`;
    const created = await t.api.post(`${base}/`).set(bearer(gus)).send({ title: 'Docs', url: 'docs.example.com/a' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.url, 'http://docs.example.com/a');
    assert.equal(created.body.owner, gus.userId);
    assert.equal(created.body.workspace, ws.id);
    const second = await t.api.post(`${base}/`).set(bearer(gus)).send({ url: 'https://plane.so' });
    assert.equal(second.status, 201);
    const list = await t.api.get(`${base}/`).set(bearer(gus));
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body));
    assert.deepEqual(
      list.body.map((l: { url: string }) => l.url),
      ['https://plane.so', 'http://docs.example.com/a'],
    );
    assertError(
      await t.api.post(`${base}/`).set(bearer(gus)).send({ url: 'http://docs.example.com/a' }),
      409,
      'QUICK_LINK_EXISTS',
    );
    const noUrl = await t.api.post(`${base}/`).set(bearer(gus)).send({ title: 'x' });
    assertError(noUrl, 422, 'VALIDATION_ERROR');
    assert.ok((noUrl.body as { errors: Record<string, unknown> }).errors.url);
    assertError(await t.api.post(`${base}/`).set(bearer(gus)).send({ url: 'not a url' }), 422, 'VALIDATION_ERROR');
    assertError(
      await t.api.post(`${base}/`).set(bearer(gus)).send({ url: 'ftp://x.example.com' }),
      422,
      'VALIDATION_ERROR',
    );

    const patched = await t.api.patch(`${base}/${created.body.id}/`).set(bearer(gus)).send({ title: 'Handbook' });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.title, 'Handbook');
    const got = await t.api.get(`${base}/${created.body.id}/`).set(bearer(gus));
    assert.equal(got.body.title, 'Handbook');
    // Ada (an Admin) does not see Gus's links
    assertError(await t.api.get(`${base}/${created.body.id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(
      await t.api.patch(`${base}/${created.body.id}/`).set(bearer(ada)).send({ title: 'x' }),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(`${base}/${created.body.id}/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assert.deepEqual((await t.api.get(`${base}/`).set(bearer(ada))).body, []);
    const removed = await t.api.delete(`${base}/${created.body.id}/`).set(bearer(gus));
    assert.equal(removed.status, 204);
    assertError(await t.api.get(`${base}/${created.body.id}/`).set(bearer(gus)), 404, 'NOT_FOUND');
    // deleted: the URL is free again
    assert.equal((await t.api.post(`${base}/`).set(bearer(gus)).send({ url: 'docs.example.com/a' })).status, 201);
  });

  it('recent visits: opening a project records it; the list has entity_data; ?entity_name filters', async () => {
    const empty = await t.api.get(`/api/workspaces/${ws.slug}/recent-visits/`).set(bearer(gus));
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, []);
    assert.equal((await t.api.get(`/api/workspaces/${ws.slug}/projects/${project.id}/`).set(bearer(gus))).status, 200);
    assert.equal((await t.api.get(`/api/workspaces/${ws.slug}/projects/${project.id}/`).set(bearer(gus))).status, 200);
    const list = await t.api.get(`/api/workspaces/${ws.slug}/recent-visits/`).set(bearer(gus));
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].entity_name, 'project');
    assert.equal(list.body[0].entity_identifier, project.id);
    assert.equal(list.body[0].entity_data.id, project.id);
    assert.ok(list.body[0].entity_data.project_members.includes(gus.userId));
    assert.match(list.body[0].visited_at, /Z$/);
    assert.deepEqual(
      (await t.api.get(`/api/workspaces/${ws.slug}/recent-visits/?entity_name=issue`).set(bearer(gus))).body,
      [],
    );
    assert.deepEqual(
      (await t.api.get(`/api/workspaces/${ws.slug}/recent-visits/?entity_name=page`).set(bearer(gus))).body,
      [],
    );
    assert.equal(
      (await t.api.get(`/api/workspaces/${ws.slug}/recent-visits/?entity_name=project`).set(bearer(gus))).body.length,
      1,
    );
    // another user's visits are theirs
    assert.deepEqual((await t.api.get(`/api/workspaces/${ws.slug}/recent-visits/`).set(bearer(ada))).body, []);
  });

  it('project, cycle and module display settings: Plane defaults on first read, PATCH replaces the given objects', async () => {
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const first = await t.api.get(`${base}/user-properties/`).set(bearer(gus));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.display_filters.layout, 'list');
    assert.equal(first.body.display_filters.order_by, '-created_at');
    assert.equal(first.body.display_properties.key, true);
    assert.equal(first.body.filters.priority, null);
    assert.equal(first.body.project, project.id);
    assert.equal(first.body.user, gus.userId);
    const patched = await t.api
      .patch(`${base}/user-properties/`)
      .set(bearer(gus))
      .send({ display_filters: { layout: 'kanban', group_by: 'state' } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.display_filters, { layout: 'kanban', group_by: 'state' });
    assert.equal(patched.body.display_properties.key, true);
    assert.equal(patched.body.id, first.body.id);
    assertError(
      await t.api.patch(`${base}/user-properties/`).set(bearer(gus)).send({ filters: 'x' }),
      422,
      'VALIDATION_ERROR',
    );
    // Ada's settings are hers
    const adas = await t.api.get(`${base}/user-properties/`).set(bearer(ada));
    assert.equal(adas.body.display_filters.layout, 'list');

    const cycle = await t.api.post(`${base}/cycles/`).set(bearer(ada)).send({ name: 'Sprint' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const mod = await t.api.post(`${base}/modules/`).set(bearer(ada)).send({ name: 'Mod' });
    assert.equal(mod.status, 201, JSON.stringify(mod.body));
    const cp = await t.api.get(`${base}/cycles/${cycle.body.id}/user-properties/`).set(bearer(gus));
    assert.equal(cp.status, 200);
    assert.equal(cp.body.cycle, cycle.body.id);
    const cpp = await t.api
      .patch(`${base}/cycles/${cycle.body.id}/user-properties/`)
      .set(bearer(gus))
      .send({ display_properties: { key: false } });
    assert.equal(cpp.status, 200);
    assert.deepEqual(cpp.body.display_properties, { key: false });
    const mp = await t.api.get(`${base}/modules/${mod.body.id}/user-properties/`).set(bearer(gus));
    assert.equal(mp.status, 200);
    assert.equal(mp.body.module, mod.body.id);
    // a cycle of another project, a module id that is none, a project the caller cannot see
    const otherCycle = await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${secret.id}/cycles/`)
      .set(bearer(ada))
      .send({ name: 'Elsewhere' });
    assertError(
      await t.api.get(`${base}/cycles/${otherCycle.body.id}/user-properties/`).set(bearer(gus)),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(`${base}/modules/${cycle.body.id}/user-properties/`).set(bearer(gus)),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.get(`/api/workspaces/${ws.slug}/projects/${secret.id}/user-properties/`).set(bearer(gus)),
      404,
      'PROJECT_NOT_FOUND',
    );
  });

  it('workspace display settings: created on first read, patched', async () => {
    const first = await t.api.get(`/api/workspaces/${ws.slug}/user-properties/`).set(bearer(gus));
    assert.equal(first.status, 200);
    assert.equal(first.body.workspace, ws.id);
    assert.equal(first.body.display_filters.layout, 'list');
    assert.equal(first.body.project, undefined);
    const patched = await t.api
      .patch(`/api/workspaces/${ws.slug}/user-properties/`)
      .set(bearer(gus))
      .send({ filters: { priority: ['urgent'] } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.filters, { priority: ['urgent'] });
  });

  it('workspace-wide cycles, modules and estimates: plain arrays of the caller’s projects', async () => {
    const adaCycles = await t.api.get(`/api/workspaces/${ws.slug}/cycles/`).set(bearer(ada));
    assert.equal(adaCycles.status, 200, JSON.stringify(adaCycles.body));
    assert.ok(Array.isArray(adaCycles.body));
    assert.deepEqual(adaCycles.body.map((c: { name: string }) => c.name).sort(), ['Elsewhere', 'Sprint']);
    assert.equal(typeof adaCycles.body[0].total_issues, 'number');
    const gusCycles = await t.api.get(`/api/workspaces/${ws.slug}/cycles/`).set(bearer(gus));
    assert.deepEqual(
      gusCycles.body.map((c: { name: string }) => c.name),
      ['Sprint'],
    );
    const modules = await t.api.get(`/api/workspaces/${ws.slug}/modules/`).set(bearer(gus));
    assert.equal(modules.status, 200);
    assert.deepEqual(
      modules.body.map((m: { name: string }) => m.name),
      ['Mod'],
    );
    const none = await t.api.get(`/api/workspaces/${ws.slug}/estimates/`).set(bearer(gus));
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, []);
    const est = await t.api
      .post(`/api/workspaces/${ws.slug}/projects/${project.id}/estimates/`)
      .set(bearer(ada))
      .send({ estimate: { name: 'Points', type: 'points' }, estimate_points: [{ value: '1' }, { value: '2' }] });
    assert.equal(est.status, 201, JSON.stringify(est.body));
    await t.sql('UPDATE projects SET estimate_id = $1 WHERE id = $2', [est.body.id, project.id]);
    const estimates = await t.api.get(`/api/workspaces/${ws.slug}/estimates/`).set(bearer(gus));
    assert.equal(estimates.body.length, 1);
    assert.equal(estimates.body[0].id, est.body.id);
    assert.deepEqual(
      estimates.body[0].points.map((p: { value: string }) => p.value),
      ['1', '2'],
    );
    assertError(await t.api.get(`/api/workspaces/${other.slug}/cycles/`).set(bearer(gus)), 404, 'WORKSPACE_NOT_FOUND');
  });

  it('projects/details: a plain array of the projects the caller may list', async () => {
    const adas = await t.api.get(`/api/workspaces/${ws.slug}/projects/details/`).set(bearer(ada));
    assert.equal(adas.status, 200, JSON.stringify(adas.body));
    assert.deepEqual(adas.body.map((p: { id: string }) => p.id).sort(), [project.id, secret.id].sort());
    const guss = await t.api.get(`/api/workspaces/${ws.slug}/projects/details/`).set(bearer(gus));
    assert.deepEqual(
      guss.body.map((p: { id: string }) => p.id),
      [project.id],
    );
  });

  it('project roles, last visited workspace and time zones', async () => {
    const roles = await t.api.get(`/api/users/me/workspaces/${ws.slug}/project-roles/`).set(bearer(gus));
    assert.equal(roles.status, 200);
    assert.deepEqual(roles.body, { [project.id]: 5 });
    const adaRoles = await t.api.get(`/api/users/me/workspaces/${ws.slug}/project-roles/`).set(bearer(ada));
    assert.deepEqual(adaRoles.body, { [project.id]: 20, [secret.id]: 20 });
    assertError(
      await t.api.get(`/api/users/me/workspaces/${other.slug}/project-roles/`).set(bearer(gus)),
      404,
      'WORKSPACE_NOT_FOUND',
    );

    const none = await t.api.get('/api/users/last-visited-workspace/').set(bearer(gus));
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, { project_details: [], workspace_details: {} });
    const set = await t.api.patch('/api/users/me/profile/').set(bearer(gus)).send({ last_workspace_id: ws.id });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const last = await t.api.get('/api/users/last-visited-workspace/').set(bearer(gus));
    assert.equal(last.body.workspace_details.id, ws.id);
    assert.equal(last.body.workspace_details.role, 5);
    assert.deepEqual(
      last.body.project_details.map((m: { project: string }) => m.project),
      [project.id],
    );
    assert.equal((await t.api.get('/api/users/last-visited-workspace/')).status, 401);

    const tz = await t.api.get('/api/timezones/');
    assert.equal(tz.status, 200);
    assert.ok(tz.body.timezones.length > 100);
    const ny = tz.body.timezones.find((z: { value: string }) => z.value === 'America/New_York');
    assert.equal(ny.utc_offset, 'UTC-05:00');
    assert.match(ny.gmt_offset, /^GMT-0[45]:00$/);
    assert.equal(ny.label, 'Eastern Time (US and Canada)');
  });
});
