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
 * The work item routes Plane 0.25.3's web app calls besides the list: the local cache sync
 * (`v2/issues/` with `updated_at__gt`, `deleted-issues/`), the gantt chart's `issue-dates/`, the
 * intake under its older name `inbox-issues/`, the cycle date check, module links and the entity
 * search. Runs on both engines.
 */
describe('App API: the web app’s work item routes', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let guest: SignedUp;
  let outsider: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let other: { id: string; identifier: string };
  let states: Record<string, string>;
  const base = (pid = project.id) => `/api/workspaces/${ws.slug}/projects/${pid}`;
  const as = (who: SignedUp) => ({
    get: (path: string) => t.api.get(path).auth(who.token, { type: 'bearer' }),
    post: (path: string, body?: object) =>
      t.api
        .post(path)
        .auth(who.token, { type: 'bearer' })
        .send(body ?? {}),
    patch: (path: string, body: object) => t.api.patch(path).auth(who.token, { type: 'bearer' }).send(body),
    delete: (path: string) => t.api.delete(path).auth(who.token, { type: 'bearer' }),
  });
  const create = async (body: Record<string, unknown>, who = admin, pid = project.id) => {
    const res = await as(who).post(`${base(pid)}/issues/`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number; updated_at: string; [k: string]: unknown };
  };

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    member = await signUp(t);
    guest = await signUp(t);
    outsider = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 15);
    await addMember(t, ws.id, guest.userId, 5);
    await addMember(t, ws.id, outsider.userId, 15);
    project = await createAppProject(t, admin.token, ws.slug, { identifier: 'SYNC', name: 'Sync' });
    other = await createAppProject(t, admin.token, ws.slug, { identifier: 'OTHER', name: 'Other' });
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
    await addProjectMember(t, ws.id, project.id, guest.userId, 5);
    const rows = await t.sql<{ id: string; group: string }>('SELECT id, "group" FROM states WHERE project_id = $1', [
      project.id,
    ]);
    states = Object.fromEntries(rows.map((r) => [r.group, r.id]));
  });
  after(() => t.close());

  it('v2/issues: pages by number with Plane’s envelope, then only what changed; deleted-issues lists the gone', async () => {
    const a = await create({ name: 'Alpha', state_id: states.started, description_html: '<p>alpha</p>' });
    const b = await create({ name: 'Beta' });
    const c = await create({ name: 'Gamma', priority: 'high' });
    await create({ name: 'Elsewhere' }, admin, other.id);

    const first = await as(member).get(`${base()}/v2/issues/?cursor=2:0:0&description=true`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.total_results, 3);
    assert.equal(first.body.total_pages, 2);
    assert.equal(first.body.page_count, 2);
    assert.equal(first.body.cursor, '2:0:0');
    assert.equal(first.body.next_cursor, '2:1:0');
    assert.equal(first.body.next_page_results, true);
    assert.equal(first.body.prev_page_results, false);
    // oldest change first
    assert.deepEqual(
      first.body.results.map((r: { id: string }) => r.id),
      [a.id, b.id],
    );
    const alpha = first.body.results[0];
    assert.equal(alpha.state__group, 'started');
    assert.equal(alpha.description_html, '<p>alpha</p>');
    for (const k of ['label_ids', 'assignee_ids', 'module_ids']) assert.deepEqual(alpha[k], [], k);
    for (const k of ['sub_issues_count', 'link_count', 'attachment_count']) assert.equal(alpha[k], 0, k);
    for (const k of ['state_id', 'sequence_id', 'project_id', 'cycle_id', 'updated_at', 'created_by', 'archived_at'])
      assert.ok(k in alpha, k);
    assert.ok(!('deleted_at' in alpha));

    const second = await as(member).get(`${base()}/v2/issues/?cursor=2:1:0`);
    assert.equal(second.status, 200);
    assert.deepEqual(
      second.body.results.map((r: { id: string }) => r.id),
      [c.id],
    );
    assert.equal(second.body.next_cursor, null);
    assert.equal(second.body.prev_page_results, true);
    assert.ok(!('description_html' in second.body.results[0]));

    // without a cursor: one page of up to 1000
    const all = await as(member).get(`${base()}/v2/issues/`);
    assert.equal(all.body.total_pages, 1);
    assert.equal(all.body.results.length, 3);

    // the sync: only what changed after the newest it has
    const since = c.updated_at;
    await new Promise((r) => setTimeout(r, 5));
    assert.equal((await as(member).patch(`${base()}/issues/${a.id}/`, { priority: 'urgent' })).status, 204);
    const changed = await as(member).get(
      `${base()}/v2/issues/?cursor=500:0:0&updated_at__gt=${encodeURIComponent(since)}`,
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(
      changed.body.results.map((r: { id: string; priority: string }) => [r.id, r.priority]),
      [[a.id, 'urgent']],
    );

    // deletions and archives after that time
    assert.equal((await as(admin).delete(`${base()}/issues/${b.id}/`)).status, 204);
    const deleted = await as(member).get(`${base()}/deleted-issues/?updated_at__gt=${encodeURIComponent(since)}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, [b.id]);
    const none = await as(member).get(
      `${base()}/deleted-issues/?updated_at__gt=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    assert.deepEqual(none.body, []);
    const afterDelete = await as(member).get(`${base()}/v2/issues/`);
    assert.ok(!afterDelete.body.results.some((r: { id: string }) => r.id === b.id));

    // bad parameters are 400s
    assertError(await as(member).get(`${base()}/v2/issues/?cursor=abc`), 400, 'INVALID_CURSOR');
    assertError(await as(member).get(`${base()}/v2/issues/?cursor=0:0:0`), 400, 'INVALID_CURSOR');
    assertError(await as(member).get(`${base()}/v2/issues/?updated_at__gt=yesterday`), 400, 'INVALID_QUERY_PARAMETER');
    assertError(
      await as(member).get(`${base()}/deleted-issues/?updated_at__gt=2024-13-45`),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('v2/issues: the pages of a sync neither skip nor lose a work item that changes or goes during it', async () => {
    for (const name of ['S1', 'S2', 'S3', 'S4', 'S5']) await create({ name });
    const ids = async (page: number) => {
      const res = await as(member).get(`${base()}/v2/issues/?cursor=2:${page}:0`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.results.map((r: { id: string }) => r.id) as string[];
    };
    const first = await as(member).get(`${base()}/v2/issues/?cursor=2:0:0`);
    const before = first.body.total_pages as number;
    const page0 = first.body.results.map((r: { id: string }) => r.id) as string[];
    const page1 = await ids(1);
    // during the sync: a work item of the first page goes, another changes (it moves to the end)
    assert.equal((await as(admin).delete(`${base()}/issues/${page0[0]}/`)).status, 204);
    await new Promise((r) => setTimeout(r, 5));
    assert.equal((await as(member).patch(`${base()}/issues/${page0[1]}/`, { priority: 'low' })).status, 204);
    // the second page is still the second page (an offset page would now start one later)
    assert.deepEqual(await ids(1), page1);
    // the changed one the client has (its change comes in the last page, or the next delta)
    const seen = new Set([page0[1], ...page1]);
    for (let p = 2; p < before; p++) for (const id of await ids(p)) seen.add(id);
    const now = await as(member).get(`${base()}/v2/issues/`);
    const visible = now.body.results.map((r: { id: string }) => r.id) as string[];
    assert.ok(!visible.includes(page0[0]));
    for (const id of visible) assert.ok(seen.has(id), `missed ${id}`);
  });

  it('v2/issues and deleted-issues follow the Guest rule; foreign projects are 404', async () => {
    // Guests cannot create work items (Plane); one made by the guest, as through the intake
    const mine = await create({ name: 'Guest made' });
    await t.sql('UPDATE issues SET created_by_id = $1 WHERE id = $2', [guest.userId, mine.id]);
    const theirs = await create({ name: 'Admin made' });
    const seen = await as(guest).get(`${base()}/v2/issues/`);
    assert.equal(seen.status, 200);
    const ids = seen.body.results.map((r: { id: string }) => r.id);
    assert.ok(ids.includes(mine.id));
    assert.ok(!ids.includes(theirs.id));
    assert.equal(seen.body.total_results, ids.length);
    assert.equal((await as(admin).delete(`${base()}/issues/${theirs.id}/`)).status, 204);
    const gone = await as(guest).get(`${base()}/deleted-issues/`);
    assert.ok(!gone.body.includes(theirs.id));
    assert.ok((await as(member).get(`${base()}/deleted-issues/`)).body.includes(theirs.id));

    // a workspace member outside the project: 403 (as every project route); another workspace's project: 404
    assertError(await as(outsider).get(`${base()}/v2/issues/`), 403, 'PERMISSION_DENIED');
    assertError(await as(outsider).get(`${base()}/deleted-issues/`), 403, 'PERMISSION_DENIED');
    const stranger = await signUp(t);
    const strangerWs = await createWorkspace(t, stranger.token);
    const strangerProject = await createAppProject(t, stranger.token, strangerWs.slug, { identifier: 'STR' });
    assertError(await as(admin).get(`${base(strangerProject.id)}/v2/issues/`), 404, 'PROJECT_NOT_FOUND');
  });

  it('issue-dates: the gantt moves dates with history; foreign ids are skipped; start after target rolls back', async () => {
    const x = await create({ name: 'Gantt x', start_date: '2030-01-01', target_date: '2030-01-10' });
    const y = await create({ name: 'Gantt y' });
    const foreign = await create({ name: 'Foreign' }, admin, other.id);
    const res = await as(member).post(`${base()}/issue-dates/`, {
      updates: [
        { id: x.id, start_date: '2030-01-05', target_date: '2030-01-20' },
        { id: y.id, target_date: '2030-02-01' },
        { id: foreign.id, start_date: '2030-03-01' },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Issues updated successfully' });
    const xs = await as(member).get(`${base()}/issues/${x.id}/`);
    assert.deepEqual([xs.body.start_date, xs.body.target_date], ['2030-01-05', '2030-01-20']);
    const ys = await as(member).get(`${base()}/issues/${y.id}/`);
    assert.deepEqual([ys.body.start_date, ys.body.target_date], [null, '2030-02-01']);
    const fs = await as(admin).get(`${base(other.id)}/issues/${foreign.id}/`);
    assert.equal(fs.body.start_date, null);
    const history = await as(member).get(`${base()}/issues/${x.id}/history/?activity_type=issue-property`);
    const fields = history.body.map((h: { field: string | null }) => h.field);
    assert.ok(fields.includes('start_date') && fields.includes('target_date'), JSON.stringify(fields));

    // a start after the target: nothing changes
    const bad = await as(member).post(`${base()}/issue-dates/`, {
      updates: [
        { id: y.id, start_date: '2030-01-15' },
        { id: x.id, start_date: '2030-02-01' },
      ],
    });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal((await as(member).get(`${base()}/issues/${y.id}/`)).body.start_date, null);
    assert.equal((await as(member).post(`${base()}/issue-dates/`, { updates: [{ id: 'nope' }] })).status, 422);
    assert.equal((await as(member).post(`${base()}/issue-dates/`, {})).status, 200);
    assertError(await as(guest).post(`${base()}/issue-dates/`, { updates: [] }), 403, 'PERMISSION_DENIED');
  });
  it('cycles/date-check: overlap with another cycle of the project, leaving out the one being edited', async () => {
    const cy = await as(admin).post(`${base()}/cycles/`, {
      name: 'Sprint 1',
      start_date: '2040-01-01',
      end_date: '2040-01-14',
    });
    assert.equal(cy.status, 201, JSON.stringify(cy.body));
    // another project's cycle on the same days does not count
    await as(admin).post(`${base(other.id)}/cycles/`, { name: 'X', start_date: '2040-02-01', end_date: '2040-02-14' });
    const check = (body: object) => as(member).post(`${base()}/cycles/date-check/`, body);
    const clash = await check({ start_date: '2040-01-10', end_date: '2040-01-20' });
    assert.equal(clash.status, 200, JSON.stringify(clash.body));
    assert.equal(clash.body.status, false);
    assert.match(clash.body.error, /already on the given dates/);
    assert.equal((await check({ start_date: '2039-12-01', end_date: '2040-02-01' })).body.status, false);
    assert.deepEqual((await check({ start_date: '2040-01-15', end_date: '2040-01-20' })).body, { status: true });
    assert.deepEqual((await check({ start_date: '2040-02-01', end_date: '2040-02-10' })).body, { status: true });
    assert.deepEqual((await check({ start_date: '2040-01-10', end_date: '2040-01-20', cycle_id: cy.body.id })).body, {
      status: true,
    });
    assert.equal((await check({ start_date: '2040-01-10' })).status, 422);
    assert.equal((await check({ start_date: '2040-01-20', end_date: '2040-01-10' })).status, 422);
    assertError(await as(guest).post(`${base()}/cycles/date-check/`, {}), 403, 'PERMISSION_DENIED');
  });

  it('module links: create, list, edit, delete; one URL once per module; foreign modules are 404', async () => {
    const mod = await as(admin).post(`${base()}/modules/`, { name: 'Linked' });
    assert.equal(mod.status, 201, JSON.stringify(mod.body));
    const links = `${base()}/modules/${mod.body.id}/module-links/`;
    const made = await as(member).post(links, { url: 'https://example.com/spec', title: 'Spec', module: 'ignored' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.url, 'https://example.com/spec');
    assert.equal(made.body.title, 'Spec');
    assert.equal(made.body.module, mod.body.id);
    assert.deepEqual(made.body.metadata, {});
    assertError(await as(member).post(links, { url: 'https://example.com/spec' }), 409, 'LINK_URL_TAKEN');
    assert.equal((await as(member).post(links, { url: 'not a url' })).status, 422);
    const list = await as(guest).get(links);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((l: { id: string }) => l.id),
      [made.body.id],
    );
    const edited = await as(member).patch(`${links}${made.body.id}/`, { title: 'The spec' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.title, 'The spec');
    assertError(await as(guest).patch(`${links}${made.body.id}/`, { title: 'x' }), 403, 'PERMISSION_DENIED');
    // a module of another project through this project: 404
    const foreign = await as(admin).post(`${base(other.id)}/modules/`, { name: 'Foreign' });
    assertError(await as(admin).get(`${base()}/modules/${foreign.body.id}/module-links/`), 404, 'NOT_FOUND');
    assertError(
      await as(admin).post(`${base()}/modules/${foreign.body.id}/module-links/`, { url: 'https://example.com' }),
      404,
      'NOT_FOUND',
    );
    assert.equal((await as(member).delete(`${links}${made.body.id}/`)).status, 204);
    assertError(await as(member).get(`${links}${made.body.id}/`), 404, 'NOT_FOUND');
    // the URL is free again
    assert.equal((await as(member).post(links, { url: 'https://example.com/spec' })).status, 201);
  });

  it('inbox-issues: the intake under the name the web app calls', async () => {
    await as(admin).patch(`${base()}/`, { intake_view: true });
    const made = await as(guest).post(`${base()}/inbox-issues/`, { issue: { name: 'From a guest' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.issue.id as string;
    const ids = (body: { results: Array<{ issue: { id: string } }> }) => body.results.map((r) => r.issue.id);
    // the open tab: pending items (Plane's default `status=-2`)
    const list = await as(admin).get(`${base()}/inbox-issues/`);
    assert.equal(list.status, 200);
    assert.ok(ids(list.body).includes(id));
    const same = await as(admin).get(`${base()}/intake-issues/${id}/`);
    const alias = await as(admin).get(`${base()}/inbox-issues/${id}/`);
    assert.equal(alias.status, 200);
    assert.deepEqual(alias.body, same.body);
    const accepted = await as(admin).patch(`${base()}/inbox-issues/${id}/`, { status: 1 });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.status, 1);
    assert.equal(accepted.body.issue.id, id);
    // accepted: off the open tab, on the closed one
    assert.ok(!ids((await as(admin).get(`${base()}/inbox-issues/`)).body).includes(id));
    assert.ok(ids((await as(admin).get(`${base()}/inbox-issues/?status=1,-1,2`)).body).includes(id));
    // the guest sees their own item
    assert.ok(ids((await as(guest).get(`${base()}/inbox-issues/?status=1`)).body).includes(id));
  });
});
