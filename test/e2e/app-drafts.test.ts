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

/** Plane 0.25.3 `DraftIssueSerializer` fields (`plane/app/serializers/draft.py`), the answer of list, retrieve and create. */
const DRAFT_KEYS = [
  'assignee_ids',
  'completed_at',
  'created_at',
  'created_by',
  'cycle_id',
  'description_html',
  'estimate_point',
  'id',
  'label_ids',
  'module_ids',
  'name',
  'parent_id',
  'priority',
  'project_id',
  'sort_order',
  'start_date',
  'state_id',
  'target_date',
  'type_id',
  'updated_at',
  'updated_by',
];

/** Workspace drafts (`draft-issues/`) and publishing them (`draft-to-issue/`). */
describe('App API: workspace drafts', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, project Admin
  let mia: SignedUp; // workspace Member, project Member
  let max: SignedUp; // workspace Member, project Member
  let gus: SignedUp; // workspace Guest, project Guest
  let eve: SignedUp; // another workspace's Admin
  let ws: { id: string; slug: string };
  let other: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let sibling: { id: string };
  let foreign: { id: string };
  const ids: Record<string, string> = {};
  const as = (u: SignedUp) => ({
    get: (url: string) => t.api.get(url).auth(u.token, { type: 'bearer' }),
    post: (url: string, body: object = {}) => t.api.post(url).auth(u.token, { type: 'bearer' }).send(body),
    patch: (url: string, body: object) => t.api.patch(url).auth(u.token, { type: 'bearer' }).send(body),
    delete: (url: string) => t.api.delete(url).auth(u.token, { type: 'bearer' }),
  });
  const drafts = (slug = ws.slug) => `/api/workspaces/${slug}/draft-issues`;
  const publish = (id: string, slug = ws.slug) => `/api/workspaces/${slug}/draft-to-issue/${id}/`;
  const base = (p = project.id) => `/api/workspaces/${ws.slug}/projects/${p}`;

  async function draft(u: SignedUp, body: Record<string, unknown> = {}) {
    const res = await as(u).post(`${drafts()}/`, { name: 'Draft', project_id: project.id, ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }
  const issueCount = async () =>
    Number((await t.sql<{ n: string }>('SELECT COUNT(*) AS n FROM issues WHERE project_id = $1', [project.id]))[0].n);

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
    const label = await as(ada).post(`${base()}/issue-labels/`, { name: 'bug', color: '#ff0000' });
    assert.equal(label.status, 201, JSON.stringify(label.body));
    ids.label = label.body.id;
    const siblingLabel = await as(ada).post(`${base(sibling.id)}/issue-labels/`, { name: 'other', color: '#00ff00' });
    ids.siblingLabel = siblingLabel.body.id;
    const cycle = await as(ada).post(`${base()}/cycles/`, { name: 'Sprint 1' });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    ids.cycle = cycle.body.id;
    const ended = await as(ada).post(`${base()}/cycles/`, { name: 'Old sprint' });
    ids.ended = ended.body.id;
    const module = await as(ada).post(`${base()}/modules/`, { name: 'Billing' });
    assert.equal(module.status, 201, JSON.stringify(module.body));
    ids.module = module.body.id;
    const siblingModule = await as(ada).post(`${base(sibling.id)}/modules/`, { name: 'Other' });
    ids.siblingModule = siblingModule.body.id;
    const states = await as(ada).get(`${base()}/states/`);
    const list = Array.isArray(states.body) ? states.body : states.body.results;
    ids.done = list.find((s: { group: string }) => s.group === 'completed').id;
    const siblingStates = await as(ada).get(`${base(sibling.id)}/states/`);
    ids.siblingState = (Array.isArray(siblingStates.body) ? siblingStates.body : siblingStates.body.results)[0].id;
    const parent = await as(mia).post(`${base()}/issues/`, { name: 'Parent item' });
    ids.parent = parent.body.id;
  });
  after(() => t.close());

  it("creates a draft with its project's default state, links and Plane's keys, and lists only the caller's", async () => {
    const d = await draft(mia, {
      name: '  Write the spec  ',
      description_html: '<p>spec</p>',
      priority: 'high',
      label_ids: [ids.label, ids.siblingLabel],
      assignee_ids: [max.userId, gus.userId, eve.userId],
      cycle_id: ids.cycle,
      module_ids: [ids.module],
      start_date: '2030-01-01',
      target_date: '2030-01-31',
      parent_id: ids.parent,
      is_draft: true,
      sub_issues_count: 0,
    });
    assert.deepEqual(Object.keys(d).sort(), DRAFT_KEYS);
    assert.equal(d.name, 'Write the spec');
    assert.equal(d.project_id, project.id);
    assert.ok(d.state_id, 'the default state');
    assert.equal(d.priority, 'high');
    assert.deepEqual(d.label_ids, [ids.label], "another project's label is dropped");
    assert.deepEqual(d.assignee_ids, [max.userId], 'Guests and non-members are dropped');
    assert.equal(d.cycle_id, ids.cycle);
    assert.deepEqual(d.module_ids, [ids.module]);
    assert.equal(d.parent_id, ids.parent);
    assert.equal(d.created_by, mia.userId);
    assert.equal(d.description_html, '<p>spec</p>');
    assert.equal(d.sort_order, 65535);
    assert.equal(d.completed_at, null);
    ids.spec = d.id;

    const second = await draft(mia, { name: 'Second', state_id: ids.done });
    assert.ok(second.completed_at, 'a completed state sets completed_at');
    ids.second = second.id;
    const third = await draft(mia, { name: 'Third' });
    assert.equal(third.sort_order, 75535, 'after the last one in that state, + 10000');
    ids.third = third.id;

    const bare = await as(gus).post(`${drafts()}/`, {});
    assert.equal(bare.status, 201, 'a Guest may keep drafts; nothing is required');
    assert.equal(bare.body.project_id, null);
    assert.equal(bare.body.name, null);
    assert.equal(bare.body.state_id, null);
    ids.gusDraft = bare.body.id;

    const list = await as(mia).get(`${drafts()}/`);
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body.results), 'the cursor envelope');
    assert.deepEqual(
      list.body.results.map((r: { id: string }) => r.id),
      [ids.third, ids.second, ids.spec],
      'newest first',
    );
    for (const row of list.body.results) assert.deepEqual(Object.keys(row).sort(), DRAFT_KEYS);
    assert.equal(list.body.results[2].cycle_id, ids.cycle);
    const paged = await as(mia).get(`${drafts()}/?per_page=2&cursor=2:0:0`);
    assert.equal(paged.body.results.length, 2);
    assert.equal(paged.body.next_page_results, true);
    const gusList = await as(gus).get(`${drafts()}/`);
    assert.deepEqual(
      gusList.body.results.map((r: { id: string }) => r.id),
      [ids.gusDraft],
    );
    assert.deepEqual((await as(ada).get(`${drafts()}/`)).body.results, [], "an Admin does not see others' drafts");
  });

  it('refuses bad input with 422 and foreign projects with 404', async () => {
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await as(mia).post(`${drafts()}/`, { name: 'x', project_id: project.id, ...body });
      assert.equal(res.status, 422, `${field}: ${JSON.stringify(res.body)}`);
      assert.ok(JSON.stringify(res.body).includes(field), JSON.stringify(res.body));
    };
    await bad({ priority: 'asap' }, 'priority');
    await bad({ start_date: '2030-02-01', target_date: '2030-01-01' }, 'start_date');
    await bad({ start_date: '2030-02-30' }, 'start_date');
    await bad({ state_id: ids.siblingState }, 'state_id');
    await bad({ state_id: 'nope' }, 'state_id');
    await bad({ cycle_id: ids.siblingModule }, 'cycle_id');
    await bad({ module_ids: [ids.siblingModule] }, 'module_ids');
    await bad({ label_ids: 'x' }, 'label_ids');
    await bad({ name: 'n'.repeat(256) }, 'name');
    await bad({ project_id: null, state_id: ids.done }, 'state_id');
    assertError(await as(mia).post(`${drafts()}/`, { project_id: foreign.id }), 404, 'PROJECT_NOT_FOUND');
    assertError(await as(gus).post(`${drafts()}/`, { project_id: sibling.id }), 404, 'PROJECT_NOT_FOUND');
    assertError(await as(eve).post(`${drafts()}/`, {}), 404, 'WORKSPACE_NOT_FOUND');
    assertError(await as(eve).get(`${drafts()}/`), 404, 'WORKSPACE_NOT_FOUND');
  });

  it('reads a draft (workspace Admins, as Plane) and only its creator', async () => {
    const own = await draft(ada, { name: 'Admin draft' });
    const got = await as(ada).get(`${drafts()}/${own.id}/`);
    assert.equal(got.status, 200);
    assert.deepEqual(Object.keys(got.body).sort(), DRAFT_KEYS);
    assert.equal(got.body.name, 'Admin draft');
    assertError(await as(ada).get(`${drafts()}/${ids.spec}/`), 404, 'NOT_FOUND');
    assertError(await as(mia).get(`${drafts()}/${ids.spec}/`), 403, 'PERMISSION_DENIED');
    assertError(await as(ada).get(`${drafts()}/00000000-0000-4000-8000-000000000000/`), 404, 'NOT_FOUND');
    assertError(await as(eve).get(`/api/workspaces/${other.slug}/draft-issues/${own.id}/`), 404, 'NOT_FOUND');
  });

  it('updates a draft (204): sets replaced, cycle removed, another project resets its state', async () => {
    const res = await as(mia).patch(`${drafts()}/${ids.third}/`, {
      name: 'Third, renamed',
      label_ids: [ids.label],
      assignee_ids: [max.userId],
      cycle_id: ids.cycle,
      priority: 'low',
      id: 'ignored',
    });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const row = (await as(mia).get(`${drafts()}/`)).body.results.find((r: { id: string }) => r.id === ids.third);
    assert.equal(row.name, 'Third, renamed');
    assert.deepEqual(row.label_ids, [ids.label]);
    assert.deepEqual(row.assignee_ids, [max.userId]);
    assert.equal(row.cycle_id, ids.cycle);
    assert.equal(row.priority, 'low');
    assert.equal(row.updated_by, mia.userId);

    assert.equal((await as(mia).patch(`${drafts()}/${ids.third}/`, { cycle_id: null, label_ids: [] })).status, 204);
    const cleared = (await as(mia).get(`${drafts()}/`)).body.results.find((r: { id: string }) => r.id === ids.third);
    assert.equal(cleared.cycle_id, null);
    assert.deepEqual(cleared.label_ids, []);
    assert.deepEqual(cleared.assignee_ids, [max.userId], 'not given: kept');

    await addProjectMember(t, ws.id, sibling.id, mia.userId, 15);
    assert.equal((await as(mia).patch(`${drafts()}/${ids.second}/`, { project_id: sibling.id })).status, 204);
    const moved = (await as(mia).get(`${drafts()}/`)).body.results.find((r: { id: string }) => r.id === ids.second);
    assert.equal(moved.project_id, sibling.id);
    assert.notEqual(moved.state_id, ids.done, "the new project's default state");
    assert.equal(moved.completed_at, null);
    assert.equal((await as(mia).patch(`${drafts()}/${ids.second}/`, { project_id: project.id })).status, 204);

    assertError(
      await as(mia).patch(`${drafts()}/${ids.third}/`, { start_date: '2031-01-02', target_date: '2031-01-01' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(await as(mia).patch(`${drafts()}/${ids.third}/`, { project_id: foreign.id }), 404, 'PROJECT_NOT_FOUND');
    assertError(await as(ada).patch(`${drafts()}/${ids.third}/`, { name: 'mine?' }), 404, 'NOT_FOUND');
    assertError(await as(gus).patch(`${drafts()}/${ids.gusDraft}/`, { name: 'x' }), 403, 'PERMISSION_DENIED');
  });

  it('publishes a draft into its project as a work item with its links, in one transaction', async () => {
    const before = await issueCount();
    const res = await as(mia).post(publish(ids.spec));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const item = res.body;
    assert.equal(item.name, 'Write the spec');
    assert.equal(item.project_id, project.id);
    assert.equal(item.priority, 'high');
    assert.equal(item.parent_id, ids.parent);
    assert.deepEqual(item.label_ids, [ids.label]);
    assert.deepEqual(item.assignee_ids, [max.userId]);
    assert.equal(item.start_date, '2030-01-01');
    assert.ok(item.sequence_id > 0);
    assert.equal(item.created_by, mia.userId);
    assert.equal(await issueCount(), before + 1);

    const detail = await as(mia).get(`${base()}/issues/${item.id}/`);
    assert.equal(detail.status, 200);
    assert.equal(detail.body.cycle_id, ids.cycle);
    assert.deepEqual(detail.body.module_ids, [ids.module]);
    assert.equal(detail.body.description_html, '<p>spec</p>');
    const history = await as(mia).get(`${base()}/issues/${item.id}/history/`);
    const fields = history.body.map((h: { field: string | null; verb: string }) => h.field ?? h.verb);
    for (const f of ['created', 'cycles', 'modules'])
      assert.ok(fields.includes(f), `${f} in ${JSON.stringify(fields)}`);

    assertError(await as(mia).post(publish(ids.spec)), 404, 'NOT_FOUND');
    assert.ok(!(await as(mia).get(`${drafts()}/`)).body.results.some((r: { id: string }) => r.id === ids.spec));
  });

  it("lets the body override the draft's fields, as Plane creates from the request", async () => {
    const d = await draft(mia, { name: 'Stored name', priority: 'low' });
    const res = await as(mia).post(publish(d.id), { ...d, name: 'From the form', priority: 'urgent', is_draft: false });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.name, 'From the form');
    assert.equal(res.body.priority, 'urgent');
  });

  it('publishes nothing when any part fails, and refuses drafts it cannot publish', async () => {
    const before = await issueCount();
    const d = await draft(mia, { name: 'Into an ended cycle', cycle_id: ids.ended });
    await t.sql(
      `UPDATE cycles SET start_date = now() - interval '20 days', end_date = now() - interval '10 days' WHERE id = $1`,
      [ids.ended],
    );
    assertError(await as(mia).post(publish(d.id)), 400, 'CYCLE_COMPLETED');
    assert.equal(await issueCount(), before, 'no half-published draft');
    assert.ok((await as(mia).get(`${drafts()}/`)).body.results.some((r: { id: string }) => r.id === d.id));
    const foreignModule = await as(mia).post(publish(d.id), { cycle_id: null, module_ids: [ids.siblingModule] });
    assertError(foreignModule, 404, 'NOT_FOUND');
    assert.equal(await issueCount(), before);

    const unnamed = await draft(mia, { name: null });
    assertError(await as(mia).post(publish(unnamed.id)), 422, 'VALIDATION_ERROR');
    const homeless = await draft(mia, { project_id: null });
    assertError(await as(mia).post(publish(homeless.id)), 400, 'DRAFT_PROJECT_REQUIRED');
    assertError(await as(gus).post(publish(ids.gusDraft)), 403, 'PERMISSION_DENIED');
    assertError(await as(ada).post(publish(ids.third)), 404, 'NOT_FOUND');

    const left = await draft(max, { name: 'Left behind' });
    await t.sql('UPDATE project_members SET role = 5 WHERE project_id = $1 AND member_id = $2', [
      project.id,
      max.userId,
    ]);
    assertError(await as(max).post(publish(left.id)), 403, 'PERMISSION_DENIED');
    await t.sql('UPDATE project_members SET role = 15 WHERE project_id = $1 AND member_id = $2', [
      project.id,
      max.userId,
    ]);
    assert.equal(await issueCount(), before);
  });

  it("deletes the caller's own draft (204) and no one else's", async () => {
    assertError(await as(ada).delete(`${drafts()}/${ids.third}/`), 404, 'NOT_FOUND');
    assert.equal((await as(gus).delete(`${drafts()}/${ids.gusDraft}/`)).status, 204, 'a Guest deletes their own');
    assert.equal((await as(mia).delete(`${drafts()}/${ids.third}/`)).status, 204);
    assertError(await as(mia).delete(`${drafts()}/${ids.third}/`), 404, 'NOT_FOUND');
    assertError(await as(mia).patch(`${drafts()}/${ids.third}/`, { name: 'x' }), 404, 'NOT_FOUND');
    assertError(await as(mia).delete(`${drafts()}/not-a-uuid/`), 404, 'NOT_FOUND');
  });
});
