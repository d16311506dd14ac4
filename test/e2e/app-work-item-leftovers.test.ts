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

/** Plane 0.25.3 `IssueDescriptionVersionEndpoint` / `IssueVersionEndpoint` list `required_fields`. */
const VERSION_LIST_KEYS = [
  'created_at',
  'created_by',
  'id',
  'issue',
  'last_saved_at',
  'owned_by',
  'project',
  'updated_at',
  'updated_by',
  'workspace',
];
/** Plane's `IssueDescriptionVersionDetailSerializer` fields. */
const DESCRIPTION_VERSION_KEYS = [
  ...VERSION_LIST_KEYS,
  'description_binary',
  'description_html',
  'description_json',
  'description_stripped',
].sort();
/** Plane's `global_paginator.paginate` envelope. */
const GLOBAL_PAGE_KEYS = [
  'cursor',
  'next_cursor',
  'next_page_results',
  'page_count',
  'prev_cursor',
  'prev_page_results',
  'results',
  'total_pages',
  'total_results',
];

/** Work item leftovers: versions of a work item and of its description. */
describe('App API: work item versions', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let mia: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest, project Guest
  let eve: SignedUp; // another workspace's Admin
  let ws: { id: string; slug: string };
  let project: { id: string };
  let foreign: { id: string; slug: string };
  let item: string;
  const as = (u: SignedUp) => ({
    get: (url: string) => t.api.get(url).auth(u.token, { type: 'bearer' }),
    post: (url: string, body: object = {}) => t.api.post(url).auth(u.token, { type: 'bearer' }).send(body),
    patch: (url: string, body: object) => t.api.patch(url).auth(u.token, { type: 'bearer' }).send(body),
    put: (url: string, body: object) => t.api.put(url).auth(u.token, { type: 'bearer' }).send(body),
  });
  const base = (p = project.id) => `/api/workspaces/${ws.slug}/projects/${p}`;

  before(async () => {
    t = await startTestApp();
    [ada, mia, gus, eve] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    project = await createAppProject(t, ada.token, ws.slug, { name: 'Roadmap' });
    await addProjectMember(t, ws.id, project.id, mia.userId, 15);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    const other = await createWorkspace(t, eve.token);
    foreign = { ...(await createAppProject(t, eve.token, other.slug)), slug: other.slug };
    const res = await as(mia).post(`${base()}/issues/`, { name: 'Spec', description_html: '<p>first</p>' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    item = res.body.id;
  });
  after(() => t.close());

  it('keeps no version until the description changes, then the first one and the change', async () => {
    const empty = await as(mia).get(`${base()}/issues/${item}/description-versions/`);
    assert.equal(empty.status, 200);
    assert.deepEqual(Object.keys(empty.body).sort(), GLOBAL_PAGE_KEYS);
    assert.equal(empty.body.total_results, 0);

    assert.equal((await as(mia).patch(`${base()}/issues/${item}/`, { priority: 'high' })).status, 204);
    assert.equal(
      (await as(mia).get(`${base()}/issues/${item}/description-versions/`)).body.total_results,
      0,
      'other fields write no version',
    );

    // the creator again within 10 minutes: the first version is updated
    assert.equal((await as(mia).patch(`${base()}/issues/${item}/`, { description_html: '<p>second</p>' })).status, 204);
    let list = await as(mia).get(`${base()}/issues/${item}/description-versions/`);
    assert.equal(list.body.total_results, 1, JSON.stringify(list.body));
    assert.deepEqual(Object.keys(list.body.results[0]).sort(), VERSION_LIST_KEYS);
    assert.equal(list.body.results[0].owned_by, mia.userId);
    assert.equal(list.body.results[0].issue, item);
    assert.equal(list.body.results[0].project, project.id);
    assert.equal(list.body.results[0].workspace, ws.id);

    // another user: a new version
    assert.equal((await as(ada).patch(`${base()}/issues/${item}/`, { description_html: '<p>third</p>' })).status, 204);
    list = await as(mia).get(`${base()}/issues/${item}/description-versions/`);
    assert.equal(list.body.total_results, 2);
    const [newest, oldest] = list.body.results;
    assert.equal(newest.owned_by, ada.userId, 'newest first');
    const detail = await as(mia).get(`${base()}/issues/${item}/description-versions/${newest.id}/`);
    assert.equal(detail.status, 200);
    assert.deepEqual(Object.keys(detail.body).sort(), DESCRIPTION_VERSION_KEYS);
    assert.equal(detail.body.description_html, '<p>third</p>');
    assert.equal(detail.body.description_stripped, 'third');
    assert.equal(detail.body.description_binary, null);
    const first = await as(mia).get(`${base()}/issues/${item}/description-versions/${oldest.id}/`);
    assert.equal(first.body.description_html, '<p>second</p>');

    // an old version by the same user is not merged
    await t.sql(`UPDATE issue_description_versions SET last_saved_at = now() - interval '11 minutes'`);
    assert.equal((await as(ada).patch(`${base()}/issues/${item}/`, { description_html: '<p>fourth</p>' })).status, 204);
    list = await as(mia).get(`${base()}/issues/${item}/description-versions/?cursor=2:0:0`);
    assert.equal(list.body.total_results, 3);
    assert.equal(list.body.page_count, 2);
    assert.equal(list.body.next_cursor, '2:1:0');
    assert.equal(list.body.total_pages, 2);
    const second = await as(mia).get(`${base()}/issues/${item}/description-versions/?cursor=2:1:0`);
    assert.equal(second.body.page_count, 1);
    assert.equal(second.body.prev_page_results, true);

    // unchanged description: no new version
    assert.equal((await as(ada).patch(`${base()}/issues/${item}/`, { description_html: '<p>fourth</p>' })).status, 204);
    assert.equal((await as(mia).get(`${base()}/issues/${item}/description-versions/`)).body.total_results, 3);
  });

  it('keeps the description from before the first change as the first version', async () => {
    const res = await as(mia).post(`${base()}/issues/`, { name: 'Old', description_html: '<p>original</p>' });
    await t.sql(`UPDATE issues SET created_at = now() - interval '1 hour' WHERE id = $1`, [res.body.id]);
    assert.equal(
      (await as(mia).patch(`${base()}/issues/${res.body.id}/`, { description_html: '<p>edited</p>' })).status,
      204,
    );
    const list = await as(mia).get(`${base()}/issues/${res.body.id}/description-versions/`);
    assert.equal(list.body.total_results, 2);
    const htmls = [];
    for (const v of list.body.results)
      htmls.push(
        (await as(mia).get(`${base()}/issues/${res.body.id}/description-versions/${v.id}/`)).body.description_html,
      );
    assert.deepEqual(htmls, ['<p>edited</p>', '<p>original</p>']);
  });

  it('answers no work item versions, as Plane writes none on a change', async () => {
    const res = await as(gus).get(`${base()}/issues/${item}/versions/`);
    assert.equal(res.status, 404, 'a Guest sees only their own work items');
    const list = await as(mia).get(`${base()}/issues/${item}/versions/`);
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(list.body).sort(), GLOBAL_PAGE_KEYS);
    assert.deepEqual(list.body.results, []);
    assertError(
      await as(mia).get(`${base()}/issues/${item}/versions/00000000-0000-4000-8000-000000000000/`),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses foreign, hidden and malformed ids', async () => {
    const version = (await as(mia).get(`${base()}/issues/${item}/description-versions/`)).body.results[0].id;
    assertError(await as(gus).get(`${base()}/issues/${item}/description-versions/`), 404, 'NOT_FOUND');
    assertError(await as(gus).get(`${base()}/issues/${item}/description-versions/${version}/`), 404, 'NOT_FOUND');
    const own = await as(gus).post(`${base()}/issues/`, { name: 'Guest item' });
    if (own.status === 201) {
      const r = await as(gus).get(`${base()}/issues/${own.body.id}/description-versions/`);
      assert.equal(r.status, 200);
      assertError(
        await as(gus).get(`${base()}/issues/${own.body.id}/description-versions/${version}/`),
        404,
        'NOT_FOUND',
      );
    }
    assertError(await as(eve).get(`${base()}/issues/${item}/description-versions/`), 404, 'WORKSPACE_NOT_FOUND');
    const elsewhere = `/api/workspaces/${foreign.slug}/projects/${foreign.id}/issues/${item}/description-versions/`;
    assertError(await as(eve).get(elsewhere), 404, 'NOT_FOUND');
    assertError(await as(mia).get(`${base()}/issues/not-a-uuid/description-versions/`), 404, 'NOT_FOUND');
    assertError(await as(mia).get(`${base()}/issues/${item}/description-versions/?cursor=x`), 400, 'INVALID_CURSOR');
  });

  it('answers PUT as PATCH where Plane maps "put": "update"', async () => {
    const issue = await as(mia).post(`${base()}/issues/`, { name: 'Before' });
    const put = await as(mia).put(`${base()}/issues/${issue.body.id}/`, { name: 'After', priority: 'low' });
    assert.equal(put.status, 204, JSON.stringify(put.body));
    const got = await as(mia).get(`${base()}/issues/${issue.body.id}/`);
    assert.equal(got.body.name, 'After');
    assert.equal(got.body.priority, 'low', 'a partial body is enough, as PATCH');
    assertError(await as(mia).put(`${base()}/issues/${issue.body.id}/`, { priority: 'asap' }), 422, 'VALIDATION_ERROR');

    const label = await as(ada).post(`${base()}/issue-labels/`, { name: 'bug', color: '#ff0000' });
    const relabel = await as(ada).put(`${base()}/issue-labels/${label.body.id}/`, { name: 'defect' });
    assert.equal(relabel.status, 200, JSON.stringify(relabel.body));
    assert.equal(relabel.body.name, 'defect');
    assertError(await as(mia).put(`${base()}/issue-labels/${label.body.id}/`, { name: 'x' }), 403, 'PERMISSION_DENIED');

    const renamed = await as(ada).put(`/api/workspaces/${ws.slug}/`, { name: 'Renamed workspace' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.name, 'Renamed workspace');
    assertError(await as(mia).put(`/api/workspaces/${ws.slug}/`, { name: 'x' }), 403, 'PERMISSION_DENIED');

    const cycle = await as(mia).post(`${base()}/cycles/`, { name: 'Sprint' });
    const recycled = await as(mia).put(`${base()}/cycles/${cycle.body.id}/`, { name: 'Sprint 2' });
    assert.equal(recycled.status, 200, JSON.stringify(recycled.body));
    assert.equal(recycled.body.name, 'Sprint 2');
    assertError(
      await as(mia).put(`${base()}/cycles/00000000-0000-4000-8000-000000000000/`, { name: 'x' }),
      404,
      'NOT_FOUND',
    );
  });

  it('bulk-creates labels (project Admins), skipping names the project has', async () => {
    await as(ada).post(`${base()}/issue-labels/`, { name: 'existing', color: '#000000' });
    const res = await as(ada).post(`${base()}/bulk-create-labels/`, {
      label_data: [{ name: 'imported', description: 'from Jira' }, { name: 'existing' }, {}, { name: 'imported' }],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['labels']);
    assert.deepEqual(
      res.body.labels.map((l: { name: string }) => l.name),
      ['imported', 'Migrated'],
    );
    const [imported, migrated] = res.body.labels;
    assert.equal(imported.description, 'from Jira');
    assert.equal(migrated.description, 'Migrated Issue');
    assert.match(imported.color, /^#[0-9A-F]{6}$/);
    assert.equal(imported.project_id, project.id);
    assert.ok(migrated.sort_order > imported.sort_order);
    assertError(await as(mia).post(`${base()}/bulk-create-labels/`, { label_data: [] }), 403, 'PERMISSION_DENIED');
    const bad = await as(ada).post(`${base()}/bulk-create-labels/`, { label_data: [{ name: 5 }] });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.deepEqual((await as(ada).post(`${base()}/bulk-create-labels/`, {})).body, { labels: [] });
  });
});
