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

/** Saved views: a project's (`projects/{id}/views/`) and the workspace's (`views/`), their work items and favourites. */
describe('App API: saved views', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let mia: SignedUp; // workspace Member, project Member
  let max: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest, project Guest
  let eve: SignedUp; // another workspace's Admin
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let project: { id: string };
  let sibling: { id: string };
  let foreign: { id: string };
  const items: Record<string, string> = {};
  const as = (u: SignedUp) => ({
    get: (url: string) => t.api.get(url).auth(u.token, { type: 'bearer' }),
    post: (url: string, body: object = {}) => t.api.post(url).auth(u.token, { type: 'bearer' }).send(body),
    patch: (url: string, body: object) => t.api.patch(url).auth(u.token, { type: 'bearer' }).send(body),
    delete: (url: string) => t.api.delete(url).auth(u.token, { type: 'bearer' }),
  });
  const base = (p = project.id, slug = ws.slug) => `/api/workspaces/${slug}/projects/${p}`;
  const views = (p = project.id) => `${base(p)}/views`;
  const wsViews = (slug = ws.slug) => `/api/workspaces/${slug}/views`;

  async function view(u: SignedUp, body: Record<string, unknown> = {}, url = views()) {
    const res = await as(u).post(`${url}/`, { name: `View ${Math.random()}`, ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  before(async () => {
    t = await startTestApp();
    [ada, mia, max, gus, eve] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    other = await createWorkspace(t, eve.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, max.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug, { name: 'Roadmap' });
    sibling = await createAppProject(t, ada.token, ws.slug, { name: 'Sibling' });
    foreign = await createAppProject(t, eve.token, other.slug, { name: 'Elsewhere' });
    for (const u of [mia, max]) await addProjectMember(t, ws.id, project.id, u.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    for (const [name, priority, target] of [
      ['urgent', 'urgent', '2030-01-10'],
      ['high', 'high', '2030-02-10'],
      ['low', 'low', null],
    ] as const) {
      const res = await as(mia).post(`${base()}/issues/`, { name, priority, target_date: target });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      items[name] = res.body.id;
    }
  });
  after(() => t.close());

  it("creates, lists, reads, updates and deletes a project's view in Plane's shape", async () => {
    const first = await view(mia, {
      name: '  Hot  ',
      description: 'urgent things',
      filters: { priority: ['urgent', 'high'], state: null, labels: [] },
      logo_props: { in_use: 'emoji' },
      workspace: 'ignored',
      owned_by: ada.userId,
      query: { x: 1 },
      unknown_field: true,
    });
    assert.equal(first.name, 'Hot');
    assert.equal(first.description, 'urgent things');
    assert.equal(first.owned_by, mia.userId);
    assert.equal(first.created_by, mia.userId);
    assert.equal(first.workspace, ws.id);
    assert.equal(first.project, project.id);
    assert.equal(first.access, 1);
    assert.equal(first.is_locked, false);
    assert.equal(first.is_favorite, false);
    assert.equal(first.sort_order, 65535);
    assert.deepEqual(first.query, { priority__in: ['urgent', 'high'] });
    assert.deepEqual(first.filters, { priority: ['urgent', 'high'], state: null, labels: [] });
    assert.equal(first.display_filters.order_by, '-created_at');
    assert.equal(first.display_properties.key, true);
    assert.deepEqual(first.logo_props, { in_use: 'emoji' });
    assert.ok(!('unknown_field' in first));
    assert.equal(first.deleted_at, null);
    for (const key of ['id', 'created_at', 'updated_at', 'updated_by']) assert.ok(key in first, key);

    const second = await view(max, { name: 'Another' });
    assert.equal(second.sort_order, 75535, 'the largest + 10000, as Plane');

    const list = await as(ada).get(`${views()}/`);
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body), 'a bare array');
    const names = list.body.map((v: { name: string }) => v.name);
    assert.ok(names.indexOf('Another') < names.indexOf('Hot'), 'by name');
    const narrowed = await as(ada).get(`${views()}/?fields=id,name`);
    assert.deepEqual(Object.keys(narrowed.body[0]).sort(), ['id', 'name']);

    const got = await as(gus).get(`${views()}/${first.id}/`);
    assert.equal(got.status, 404, 'a Guest sees only their own views');
    assert.equal((await as(ada).get(`${views()}/${first.id}/`)).body.name, 'Hot');

    const patched = await as(mia).patch(`${views()}/${first.id}/`, {
      name: 'Hotter',
      filters: { priority: ['urgent'] },
      display_filters: { order_by: 'priority', sub_issue: false },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.name, 'Hotter');
    assert.deepEqual(patched.body.query, { priority__in: ['urgent'] });
    assert.equal(patched.body.updated_by, mia.userId);
    const notOwner = await as(ada).patch(`${views()}/${first.id}/`, { name: 'Admin edit' });
    assertError(notOwner, 403, 'PERMISSION_DENIED');

    assertError(await as(max).delete(`${views()}/${first.id}/`), 403, 'PERMISSION_DENIED');
    assert.equal((await as(ada).delete(`${views()}/${first.id}/`)).status, 204, 'a project Admin deletes any');
    assertError(await as(mia).get(`${views()}/${first.id}/`), 404, 'NOT_FOUND');
    assert.equal((await as(max).delete(`${views()}/${second.id}/`)).status, 204, 'the owner deletes theirs');
  });

  it('validates the body (422) and refuses bad filter values', async () => {
    const url = `${views()}/`;
    const noName = await as(mia).post(url, { filters: {} });
    assert.equal(noName.status, 422);
    assert.ok(noName.body.errors.name);
    assert.equal((await as(mia).post(url, { name: '   ' })).status, 422);
    for (const body of [
      { name: 'x', filters: 'priority=urgent' },
      { name: 'x', filters: { priority: ['nope'] } },
      { name: 'x', filters: { state: ['not-a-uuid'] } },
      { name: 'x', filters: { labels: [1, 2] } },
      { name: 'x', filters: { target_date: ['tomorrow'] } },
      { name: 'x', access: 2 },
      { name: 'x', is_locked: 'yess' },
      { name: 'x', display_filters: [] },
      { name: 'x', sort_order: 1e20 },
    ]) {
      const res = await as(mia).post(url, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    const ok = await view(mia, {
      filters: {
        target_date: ['2030-01-01;after', '2_weeks;after;fromnow', '2030-12-31'],
        cycle: ['None'],
        mentions: [mia.userId],
        layout_extra: { anything: true },
      },
    });
    assert.equal(ok.query['issue_cycle__cycle_id__in'][0], 'None');
    assert.equal(ok.query['target_date__contains'], '2030-12-31');
    assert.ok(ok.query['issue_mention__mention__id__in']);
    const bad = await as(mia).patch(`${views()}/${ok.id}/`, { filters: { priority: 'urgent,nope' } });
    assertError(bad, 422, 'VALIDATION_ERROR');
    assert.ok(bad.body.errors.filters);
  });

  it('a private view is its owner’s alone: others get 404 everywhere', async () => {
    const mine = await view(mia, { name: 'Secret plan', access: 0 });
    assert.equal(mine.access, 0);
    assert.ok((await as(mia).get(`${views()}/`)).body.some((v: { id: string }) => v.id === mine.id));
    assert.ok(!(await as(ada).get(`${views()}/`)).body.some((v: { id: string }) => v.id === mine.id));
    for (const res of [
      await as(ada).get(`${views()}/${mine.id}/`),
      await as(ada).patch(`${views()}/${mine.id}/`, { name: 'x' }),
      await as(ada).delete(`${views()}/${mine.id}/`),
      await as(ada).get(`${views()}/${mine.id}/issues/`),
      await as(ada).post(`${base()}/user-favorite-views/`, { view: mine.id }),
      await as(ada).post(`/api/workspaces/${ws.slug}/user-favorites/`, {
        entity_type: 'view',
        entity_identifier: mine.id,
      }),
    ])
      assertError(res, 404, 'NOT_FOUND');
    // made public by its owner, the others see it
    assert.equal((await as(mia).patch(`${views()}/${mine.id}/`, { access: 1 })).status, 200);
    assert.equal((await as(ada).get(`${views()}/${mine.id}/`)).status, 200);
  });

  it('a locked view cannot be changed until its owner unlocks it', async () => {
    const v = await view(mia, { name: 'Frozen' });
    const locked = await as(mia).patch(`${views()}/${v.id}/`, { is_locked: true });
    assert.equal(locked.body.is_locked, true);
    assertError(await as(mia).patch(`${views()}/${v.id}/`, { name: 'Thawed' }), 400, 'VIEW_LOCKED');
    assertError(await as(mia).patch(`${views()}/${v.id}/`, { is_locked: true }), 400, 'VIEW_LOCKED');
    assertError(await as(ada).patch(`${views()}/${v.id}/`, { is_locked: false }), 403, 'PERMISSION_DENIED');
    const unlocked = await as(mia).patch(`${views()}/${v.id}/`, { is_locked: false, name: 'Thawed' });
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    assert.equal(unlocked.body.is_locked, false);
    assert.equal(unlocked.body.name, 'Thawed');
    // a locked view can still be deleted by its owner or an Admin (Plane)
    await as(mia).patch(`${views()}/${v.id}/`, { is_locked: true });
    assert.equal((await as(ada).delete(`${views()}/${v.id}/`)).status, 204);
  });

  it("lists a view's work items with its filters, in the project list's envelope", async () => {
    const v = await view(mia, { filters: { priority: ['urgent', 'high'] } });
    const url = `${views()}/${v.id}/issues/`;
    const ids = async (query = '') => {
      const res = await as(mia).get(`${url}${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok('next_cursor' in res.body && 'total_results' in res.body, 'the cursor envelope');
      return (res.body.results as Array<{ id: string }>).map((r) => r.id);
    };
    assert.deepEqual(await ids('?order_by=created_at'), [items.urgent, items.high]);
    assert.deepEqual((await ids('?priority=low')).sort(), [items.low], 'a query filter replaces the view’s');
    assert.deepEqual(await ids('?order_by=created_at&target_date=2030-02-01;after'), [items.high]);
    const first = await as(mia).get(`${url}?order_by=created_at&per_page=1`);
    assert.equal(first.body.results.length, 1);
    assert.equal(first.body.next_page_results, true);
    const grouped = await as(mia).get(`${url}?group_by=priority`);
    assert.equal(grouped.status, 200);
    assert.equal(grouped.body.grouped_by, 'priority');
    assert.equal(grouped.body.results.urgent.results.length, 1);
    assert.equal(grouped.body.results.low.results.length, 0);
    assertError(await as(mia).get(`${url}?priority=nope`), 400, 'INVALID_QUERY_PARAMETER');

    // the view's display_filters order the list when the query does not
    await as(mia).patch(`${views()}/${v.id}/`, { display_filters: { order_by: 'priority' } });
    assert.deepEqual(await ids(), [items.urgent, items.high]);
    await as(mia).patch(`${views()}/${v.id}/`, { display_filters: { order_by: '-priority' } });
    assert.deepEqual(await ids(), [items.high, items.urgent]);

    // relative dates: 2 weeks from now onwards (both target dates are in 2030)
    const soon = await view(mia, { filters: { target_date: ['2_weeks;after;fromnow'] } });
    assert.deepEqual((await ids2(soon.id)).sort(), [items.urgent, items.high].sort());
    const none = await view(mia, { filters: { target_date: ['1_weeks;before;ago'] } });
    assert.deepEqual(await ids2(none.id), []);

    async function ids2(id: string) {
      const res = await as(mia).get(`${views()}/${id}/issues/`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.results as Array<{ id: string }>).map((r) => r.id);
    }
  });

  it('Guests: their own views only, and the Guest rule on the work items, unless guest_view_all_features', async () => {
    const public_ = await view(mia, { name: 'Team view' });
    const own = await view(gus, { name: 'Guest view' });
    assert.equal(own.owned_by, gus.userId);
    const listed = (await as(gus).get(`${views()}/`)).body.map((v: { id: string }) => v.id);
    assert.deepEqual(listed, [own.id]);
    assertError(await as(gus).get(`${views()}/${public_.id}/`), 404, 'NOT_FOUND');
    const guestItems = await as(gus).get(`${views()}/${own.id}/issues/`);
    assert.equal(guestItems.status, 200);
    assert.equal(guestItems.body.results.length, 0, 'a Guest sees the work items they created only');
    assertError(await as(gus).post(`${base()}/user-favorite-views/`, { view: own.id }), 403, 'PERMISSION_DENIED');
    assertError(await as(gus).delete(`${views()}/${public_.id}/`), 404, 'NOT_FOUND');

    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [project.id]);
    try {
      assert.ok((await as(gus).get(`${views()}/`)).body.some((v: { id: string }) => v.id === public_.id));
      assert.equal((await as(gus).get(`${views()}/${public_.id}/`)).status, 200);
      const all = await as(gus).get(`${views()}/${own.id}/issues/`);
      assert.equal(all.body.results.length, 3);
      assertError(await as(gus).patch(`${views()}/${public_.id}/`, { name: 'x' }), 403, 'PERMISSION_DENIED');
      assertError(await as(gus).delete(`${views()}/${public_.id}/`), 403, 'PERMISSION_DENIED');
    } finally {
      await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [project.id]);
    }
    assert.equal((await as(gus).delete(`${views()}/${own.id}/`)).status, 204, 'a Guest deletes their own');
  });

  it('favourites a view: is_favorite, first in the list, in user-favorites/ with entity_data; deleting the view drops them', async () => {
    const v = await view(max, { name: 'ZZZ last by name', logo_props: { in_use: 'icon' } });
    const fav = `${base()}/user-favorite-views/`;
    assert.equal((await as(mia).post(fav, { view: v.id })).status, 204);
    assert.equal((await as(mia).post(fav, { view: v.id })).status, 204, 'twice is a no-op');
    assert.equal((await as(ada).post(fav, { view: v.id })).status, 204);
    const list = (await as(mia).get(`${views()}/`)).body;
    assert.equal(list[0].id, v.id, 'favourites first');
    assert.equal(list[0].is_favorite, true);
    assert.equal((await as(max).get(`${views()}/${v.id}/`)).body.is_favorite, false, 'per caller');
    const favs = (await as(mia).get(`/api/workspaces/${ws.slug}/user-favorites/`)).body;
    const entry = favs.find((f: { entity_identifier: string }) => f.entity_identifier === v.id);
    assert.equal(entry.entity_type, 'view');
    assert.equal(entry.project_id, project.id);
    assert.deepEqual(entry.entity_data, {
      id: v.id,
      name: 'ZZZ last by name',
      logo_props: { in_use: 'icon' },
      project_id: project.id,
    });
    const mine = await as(mia).get(fav);
    assert.deepEqual(
      mine.body.map((f: { entity_identifier: string }) => f.entity_identifier),
      [v.id],
    );
    assert.equal((await as(mia).delete(`${fav}${v.id}/`)).status, 204);
    assertError(await as(mia).delete(`${fav}${v.id}/`), 404, 'NOT_FOUND');
    assertError(await as(mia).post(fav, { view: 'nope' }), 422, 'VALIDATION_ERROR');
    assertError(await as(mia).post(fav, { view: '00000000-0000-4000-8000-000000000000' }), 404, 'NOT_FOUND');

    // through user-favorites/ too
    const generic = await as(mia).post(`/api/workspaces/${ws.slug}/user-favorites/`, {
      entity_type: 'view',
      entity_identifier: v.id,
    });
    assert.equal(generic.status, 200, JSON.stringify(generic.body));
    assert.equal(generic.body.entity_data.name, 'ZZZ last by name');

    assert.equal((await as(max).delete(`${views()}/${v.id}/`)).status, 204);
    const left = await t.sql('SELECT id FROM user_favorites WHERE entity_identifier = $1', [v.id]);
    assert.equal(left.length, 0, "everyone's favourites of a deleted view go with it");
  });

  it('foreign ids are 404: another project’s view, a workspace view, another workspace', async () => {
    const here = await view(mia);
    const there = await view(ada, {}, views(sibling.id));
    const global = await view(mia, {}, wsViews());
    for (const id of [there.id, global.id]) {
      assertError(await as(ada).get(`${views()}/${id}/`), 404, 'NOT_FOUND');
      assertError(await as(ada).patch(`${views()}/${id}/`, { name: 'x' }), 404, 'NOT_FOUND');
      assertError(await as(ada).delete(`${views()}/${id}/`), 404, 'NOT_FOUND');
      assertError(await as(ada).get(`${views()}/${id}/issues/`), 404, 'NOT_FOUND');
      assertError(await as(ada).post(`${base()}/user-favorite-views/`, { view: id }), 404, 'NOT_FOUND');
    }
    assertError(await as(ada).get(`${wsViews()}/${here.id}/`), 404, 'NOT_FOUND');
    assertError(await as(eve).get(`${wsViews(other.slug)}/${global.id}/`), 404, 'NOT_FOUND');
    assertError(await as(eve).get(`${views(foreign.id)}/${here.id}/`.replace(ws.slug, other.slug)), 404, 'NOT_FOUND');
    assert.equal((await as(eve).get(`${wsViews()}/`)).status, 404, 'not a member of the workspace');
    assert.equal((await as(ada).get(`${views()}/not-a-uuid/`)).status, 404);
    assert.ok(!(await as(mia).get(`${wsViews()}/`)).body.some((v: { id: string }) => v.id === here.id));
  });

  it("the workspace's views: any member creates; Guests see their own; owner edits; owner or Admin deletes", async () => {
    const a = await view(mia, { name: 'B workspace view', filters: { state_group: ['started'] } }, wsViews());
    assert.equal(a.project, null);
    assert.equal(a.workspace, ws.id);
    const b = await view(ada, { name: 'A workspace view' }, wsViews());
    assert.equal(b.sort_order, a.sort_order + 10000);
    const g = await view(gus, { name: 'Guest workspace view' }, wsViews());
    const priv = await view(max, { name: 'Private workspace view', access: 0 }, wsViews());

    const ids = async (u: SignedUp, q = '') => {
      const res = await as(u).get(`${wsViews()}/${q}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.map((v: { id: string }) => v.id);
    };
    const forMia = await ids(mia);
    assert.ok(forMia.includes(a.id) && forMia.includes(b.id) && forMia.includes(g.id));
    assert.ok(!forMia.includes(priv.id));
    assert.ok((await ids(max)).includes(priv.id));
    assert.deepEqual(await ids(gus), [g.id]);
    assertError(await as(gus).get(`${wsViews()}/${a.id}/`), 404, 'NOT_FOUND');
    const byName = await ids(mia, '?order_by=name');
    assert.ok(byName.indexOf(b.id) < byName.indexOf(a.id));
    const newest = await ids(mia);
    assert.ok(newest.indexOf(g.id) < newest.indexOf(a.id), 'newest first by default');
    assertError(await as(mia).get(`${wsViews()}/?order_by=password`), 400, 'INVALID_QUERY_PARAMETER');

    assert.equal((await as(mia).get(`${wsViews()}/${a.id}/`)).body.name, 'B workspace view');
    assertError(await as(ada).patch(`${wsViews()}/${a.id}/`, { name: 'x' }), 403, 'PERMISSION_DENIED');
    const renamed = await as(mia).patch(`${wsViews()}/${a.id}/`, { name: 'Renamed', is_locked: true });
    assert.equal(renamed.status, 200);
    assertError(await as(mia).patch(`${wsViews()}/${a.id}/`, { name: 'again' }), 400, 'VIEW_LOCKED');
    assertError(await as(max).delete(`${wsViews()}/${a.id}/`), 403, 'PERMISSION_DENIED');
    assertError(await as(max).delete(`${wsViews()}/${b.id}/`), 403, 'PERMISSION_DENIED');
    assert.equal((await as(ada).delete(`${wsViews()}/${a.id}/`)).status, 204, 'a workspace Admin deletes any');
    assert.equal((await as(gus).delete(`${wsViews()}/${g.id}/`)).status, 204, 'the owner deletes theirs');
    assertError(await as(mia).get(`${wsViews()}/${a.id}/`), 404, 'NOT_FOUND');

    // a workspace view can be a favourite through user-favorites/ (no project)
    const fav = await as(mia).post(`/api/workspaces/${ws.slug}/user-favorites/`, {
      entity_type: 'view',
      entity_identifier: b.id,
    });
    assert.equal(fav.status, 200, JSON.stringify(fav.body));
    assert.equal(fav.body.project_id, null);
    assert.equal(fav.body.entity_data.project_id, null);
    assert.equal((await as(mia).get(`${wsViews()}/${b.id}/`)).body.is_favorite, true);
  });

  it('an archived project lists no views and refuses writes', async () => {
    const p = await createAppProject(t, ada.token, ws.slug, { name: 'Old' });
    const v = await view(ada, {}, views(p.id));
    await t.sql('UPDATE projects SET archived_at = now() WHERE id = $1', [p.id]);
    assert.deepEqual((await as(ada).get(`${views(p.id)}/`)).body, []);
    assertError(await as(ada).get(`${views(p.id)}/${v.id}/`), 404, 'NOT_FOUND');
    assertError(await as(ada).post(`${views(p.id)}/`, { name: 'x' }), 400, 'PROJECT_ARCHIVED');
  });
});
