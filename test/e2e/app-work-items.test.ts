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
 * The App API's work-tracking surface driven as a web client would: sign in with a Bearer token,
 * create a project, walk the board grouped by state, open and edit a work item, comment, react,
 * link, relate, archive, bulk-edit, and read the history. Runs on both engines.
 */
describe('App API: work items', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let guest: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let states: Record<string, string>;
  const base = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const as = (who: SignedUp) => ({
    get: (path: string) => t.api.get(path).auth(who.token, { type: 'bearer' }),
    post: (path: string, body?: object) =>
      t.api
        .post(path)
        .auth(who.token, { type: 'bearer' })
        .send(body ?? {}),
    patch: (path: string, body: object) => t.api.patch(path).auth(who.token, { type: 'bearer' }).send(body),
    delete: (path: string, body?: object) =>
      body
        ? t.api.delete(path).auth(who.token, { type: 'bearer' }).send(body)
        : t.api.delete(path).auth(who.token, { type: 'bearer' }),
  });
  const create = async (body: Record<string, unknown>, who = admin, pid = project.id) => {
    const res = await as(who).post(`/api/workspaces/${ws.slug}/projects/${pid}/issues/`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number; state_id: string; [k: string]: unknown };
  };

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    // the web client signs in and works with the token it gets
    const signIn = await t.api.post('/auth/sign-in/').send({ email: admin.email, password: admin.password });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    admin = { ...admin, token: signIn.body.access_token };
    member = await signUp(t);
    guest = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 15);
    await addMember(t, ws.id, guest.userId, 5);
    project = await createAppProject(t, admin.token, ws.slug, { identifier: 'WEB', name: 'Web' });
    await addProjectMember(t, ws.id, project.id, member.userId, 15);
    await addProjectMember(t, ws.id, project.id, guest.userId, 5);
    const rows = await t.sql<{ id: string; group: string }>('SELECT id, "group" FROM states WHERE project_id = $1', [
      project.id,
    ]);
    states = Object.fromEntries(rows.map((r) => [r.group, r.id]));
  });
  after(() => t.close());

  it('reads an empty relation id as none, as Plane’s serializers: the web app’s create modal body', async () => {
    // what Plane's create modal posts when state and parent are left empty (it also sends keys Plane ignores)
    const item = await create({
      name: 'From the modal',
      description_html: '<p></p>',
      state_id: '',
      parent_id: '',
      estimate_point: '',
      type_id: '',
      priority: 'none',
      label_ids: [],
      assignee_ids: [],
      cycle_id: '',
      module_ids: [],
      project_id: project.id,
    });
    assert.equal(item.state_id, states.backlog, 'the project’s default state');
    assert.equal(item.parent_id, null);
    assert.equal(item.estimate_point, null);
    const res = await as(admin).patch(`${base()}/issues/${item.id}/`, { parent_id: '', state_id: states.started });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const after = await as(admin).get(`${base()}/issues/${item.id}/`);
    assert.equal(after.body.state_id, states.started);
    assert.equal(after.body.parent_id, null);
    // a malformed id is still refused
    const bad = await as(admin).post(`${base()}/issues/`, { name: 'x', state_id: 'not-a-uuid' });
    assert.equal(bad.status, 422);
  });

  it('creates a work item with the App names and answers Plane’s App values', async () => {
    const item = await create({
      name: ' First ',
      state_id: states.started,
      priority: 'high',
      label_ids: [],
      assignee_ids: [member.userId],
      cycle_id: null,
      project_id: project.id,
    });
    assert.equal(item.name, 'First');
    assert.equal(item.state_id, states.started);
    assert.deepEqual(item.assignee_ids, [member.userId]);
    assert.equal(item.project_id, project.id);
    for (const key of [
      'sequence_id',
      'sort_order',
      'parent_id',
      'cycle_id',
      'module_ids',
      'label_ids',
      'sub_issues_count',
      'link_count',
      'attachment_count',
      'archived_at',
      'is_draft',
      'description_html',
    ]) {
      assert.ok(key in item, `${key} missing: ${JSON.stringify(item)}`);
    }
    assert.equal(item.state, undefined, 'App values name the state state_id');
    assertError(await as(guest).post(`${base()}/issues/`, { name: 'no' }), 403, 'PERMISSION_DENIED');
    // a draft is answered on create, and stays out of the board
    const draft = await create({ name: 'Draft', is_draft: true });
    assert.equal(draft.is_draft, true);
    assert.ok(!(await as(admin).get(`${base()}/issues/`)).body.results.some((r: { id: string }) => r.id === draft.id));
  });

  it('a Guest sees only the work items they created, unless the project lets Guests see everything', async () => {
    const item = await create({ name: 'Not the guest’s', state_id: states.started });
    assertError(await as(guest).get(`${base()}/issues/${item.id}/`), 404, 'NOT_FOUND');
    const listed = await as(guest).get(`${base()}/issues/`);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.results.length, 0);
    const grouped = await as(guest).get(`${base()}/issues/?group_by=priority`);
    assert.equal(grouped.body.total_results, 0);
    const [{ sequence_id }] = [item];
    assertError(await as(guest).get(`/api/workspaces/${ws.slug}/work-items/WEB-${sequence_id}/`), 404, 'NOT_FOUND');
    // a Guest's own work item (made before they were a Guest) stays visible to them
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [item.id, guest.userId]);
    assert.equal((await as(guest).get(`${base()}/issues/${item.id}/`)).status, 200);
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [item.id, admin.userId]);
    const opened = await as(admin).patch(`${base()}/`, { guest_view_all_features: true });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    assert.equal((await as(guest).get(`${base()}/issues/${item.id}/`)).status, 200);
    assert.equal((await as(guest).get(`/api/workspaces/${ws.slug}/work-items/WEB-${sequence_id}/`)).status, 200);
    assert.ok((await as(guest).get(`${base()}/issues/`)).body.results.length >= 2);
  });

  it('walks the board: list grouped by state, with every state present and per-group totals', async () => {
    await create({ name: 'Todo A', state_id: states.unstarted });
    await create({ name: 'Todo B', state_id: states.unstarted });
    await create({ name: 'Done', state_id: states.completed });
    const res = await as(member).get(`${base()}/issues/?group_by=state_id&per_page=1`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.grouped_by, 'state_id');
    assert.deepEqual(Object.keys(res.body.results).sort(), Object.values(states).sort());
    const todo = res.body.results[states.unstarted];
    assert.equal(todo.total_results, 2);
    assert.equal(todo.results.length, 1);
    assert.ok(todo.next_cursor);
    assert.equal(res.body.results[states.cancelled].total_results, 0);
    assert.equal(res.body.next_page_results, true);
    // the group's cursor with the group's filter gives the rest of that group
    const next = await as(member).get(
      `${base()}/issues/?state=${states.unstarted}&per_page=1&cursor=${encodeURIComponent(todo.next_cursor)}`,
    );
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.results.length, 1);
    assert.notEqual(next.body.results[0].id, todo.results[0].id);
    // grouped by priority: every priority is a key
    const byPriority = await as(member).get(`${base()}/issues/?group_by=priority`);
    assert.deepEqual(Object.keys(byPriority.body.results), ['urgent', 'high', 'medium', 'low', 'none']);
    assertError(await as(member).get(`${base()}/issues/?group_by=colour`), 400, 'INVALID_QUERY_PARAMETER');
  });

  it('filters by state group, priority, assignees, created_by and dates, and orders', async () => {
    const a = await create(
      {
        name: 'Dated early',
        state_id: states.backlog,
        priority: 'low',
        start_date: '2030-01-05',
        target_date: '2030-01-10',
      },
      member,
    );
    const b = await create(
      { name: 'Dated late', state_id: states.backlog, priority: 'urgent', target_date: '2030-03-01' },
      member,
    );
    const names = async (q: string) => {
      const res = await as(admin).get(`${base()}/issues/?${q}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.results as Array<{ id: string }>).map((r) => r.id);
    };
    assert.deepEqual(await names('state_group=backlog&order_by=target_date'), [a.id, b.id]);
    assert.deepEqual(await names('state_group=backlog&order_by=-target_date'), [b.id, a.id]);
    assert.deepEqual(await names('state_group=backlog&priority=urgent'), [b.id]);
    assert.deepEqual(await names(`created_by=${member.userId}&order_by=created_at`), [a.id, b.id]);
    assert.deepEqual(await names('target_date=2030-02-01;after'), [b.id]);
    assert.deepEqual(await names('target_date=2030-01-01;after,2030-02-01;before'), [a.id]);
    assert.deepEqual(await names('start_date=2030-01-05'), [a.id]);
    const assigned = await names(`assignees=${member.userId}`);
    assert.equal(assigned.length, 1);
    assertError(await as(admin).get(`${base()}/issues/?target_date=soon`), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await as(admin).get(`${base()}/issues/?state_group=nope`), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await as(admin).get(`${base()}/issues/?order_by=colour`), 400, 'INVALID_QUERY_PARAMETER');
    // fields/expand give the object form
    const expanded = await as(admin).get(`${base()}/issues/?expand=state&state_group=backlog&order_by=created_at`);
    assert.equal(expanded.body.results[0].state.group, 'backlog');
  });

  it('opens and edits a work item: 204, the change is read back and in the history', async () => {
    const item = await create({ name: 'Edit me', state_id: states.backlog });
    const label = (
      await t.sql<{ id: string }>(
        `INSERT INTO labels (workspace_id, project_id, name, color, sort_order) VALUES ($1, $2, 'bug', '#f00', 1) RETURNING id`,
        [ws.id, project.id],
      )
    )[0].id;
    const res = await as(member).patch(`${base()}/issues/${item.id}/`, {
      name: 'Edited',
      state_id: states.started,
      label_ids: [label],
      priority: 'medium',
      sub_issues_count: 9,
    });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const got = await as(member).get(`${base()}/issues/${item.id}/`);
    assert.equal(got.body.name, 'Edited');
    assert.equal(got.body.state_id, states.started);
    assert.deepEqual(got.body.label_ids, [label]);
    const history = await as(member).get(`${base()}/issues/${item.id}/history/`);
    assert.equal(history.status, 200);
    const fields = (history.body as Array<{ field: string | null }>).map((h) => h.field);
    assert.ok(
      fields.includes('name') && fields.includes('state') && fields.includes('labels') && fields.includes('priority'),
      JSON.stringify(fields),
    );
    assert.ok(Array.isArray(history.body), 'a bare array, as Plane');
    // a label added: the empty side is "" as Plane writes it (its web app tells added from removed by it)
    const added = (history.body as Array<{ field: string; old_value: unknown; new_value: unknown }>).find(
      (h) => h.field === 'labels',
    )!;
    assert.equal(added.old_value, '');
    assert.equal(added.new_value, 'bug');
    await as(member).patch(`${base()}/issues/${item.id}/`, { label_ids: [] });
    const removed = ((await as(member).get(`${base()}/issues/${item.id}/history/`)).body as (typeof added)[]).filter(
      (h) => h.field === 'labels',
    );
    assert.equal(removed.length, 2);
    assert.deepEqual([removed[1].old_value, removed[1].new_value], ['bug', '']);
    // the guest cannot edit; a bad state is 422
    assertError(await as(guest).patch(`${base()}/issues/${item.id}/`, { name: 'no' }), 403, 'PERMISSION_DENIED');
    assert.equal(
      (await as(member).patch(`${base()}/issues/${item.id}/`, { state_id: '00000000-0000-4000-8000-000000000000' }))
        .status,
      422,
    );
  });

  it('comments (Guests too), reacts to the work item and to the comment, and links', async () => {
    const item = await create({ name: 'Discuss' });
    const c = await as(guest).post(`${base()}/issues/${item.id}/comments/`, { comment_html: '<p>hello</p>' });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const list = await as(admin).get(`${base()}/issues/${item.id}/comments/`);
    assert.equal(list.body.length, 1);
    assert.equal(list.body[0].actor, guest.userId);
    // only the author or an Admin edits
    assertError(
      await as(member).patch(`${base()}/issues/${item.id}/comments/${c.body.id}/`, { comment_html: '<p>x</p>' }),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal(
      (await as(guest).patch(`${base()}/issues/${item.id}/comments/${c.body.id}/`, { comment_html: '<p>edited</p>' }))
        .status,
      200,
    );

    const r1 = await as(guest).post(`${base()}/issues/${item.id}/reactions/`, { reaction: '128077' });
    assert.equal(r1.status, 201, JSON.stringify(r1.body));
    assert.equal(r1.body.actor, guest.userId);
    assert.equal((await as(guest).post(`${base()}/issues/${item.id}/reactions/`, { reaction: '128077' })).status, 200);
    await as(member).post(`${base()}/issues/${item.id}/reactions/`, { reaction: '128077' });
    assert.equal((await as(admin).get(`${base()}/issues/${item.id}/reactions/`)).body.length, 2);
    assert.equal((await as(guest).delete(`${base()}/issues/${item.id}/reactions/128077/`)).status, 204);
    assertError(await as(guest).delete(`${base()}/issues/${item.id}/reactions/128077/`), 404, 'NOT_FOUND');
    assert.equal((await as(admin).get(`${base()}/issues/${item.id}/reactions/`)).body.length, 1);

    const cr = await as(member).post(`${base()}/comments/${c.body.id}/reactions/`, { reaction: '127881' });
    assert.equal(cr.status, 201, JSON.stringify(cr.body));
    assert.equal(cr.body.comment, c.body.id);
    assert.equal((await as(guest).get(`${base()}/comments/${c.body.id}/reactions/`)).body.length, 1);
    assert.equal((await as(member).delete(`${base()}/comments/${c.body.id}/reactions/127881/`)).status, 204);
    assert.equal((await as(guest).get(`${base()}/comments/${c.body.id}/reactions/`)).body.length, 0);

    const link = await as(member).post(`${base()}/issues/${item.id}/issue-links/`, {
      url: 'https://example.com/spec',
      title: 'Spec',
    });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    assertError(
      await as(member).post(`${base()}/issues/${item.id}/issue-links/`, { url: 'https://example.com/spec' }),
      409,
      'LINK_URL_TAKEN',
    );
    assertError(
      await as(guest).post(`${base()}/issues/${item.id}/issue-links/`, { url: 'https://example.com/other' }),
      403,
      'PERMISSION_DENIED',
    );
    assert.equal(
      (await as(admin).patch(`${base()}/issues/${item.id}/issue-links/${link.body.id}/`, { title: 'The spec' })).body
        .title,
      'The spec',
    );
    assert.equal((await as(guest).get(`${base()}/issues/${item.id}/`)).body.link_count, 1);
    assert.equal((await as(admin).delete(`${base()}/issues/${item.id}/issue-links/${link.body.id}/`)).status, 204);
    assert.equal((await as(admin).delete(`${base()}/issues/${item.id}/comments/${c.body.id}/`)).status, 204);
  });

  it('looks a work item up by its key, in projects of the caller only', async () => {
    const item = await create({ name: 'Keyed' });
    const res = await as(guest).get(`/api/workspaces/${ws.slug}/work-items/WEB-${item.sequence_id}/`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, item.id);
    assert.equal(res.body.description_html, '<p></p>');
    assert.equal(
      (await as(guest).get(`/api/workspaces/${ws.slug}/work-items/web-${item.sequence_id}/`)).body.id,
      item.id,
    );
    assertError(await as(guest).get(`/api/workspaces/${ws.slug}/work-items/WEB-999999/`), 404, 'NOT_FOUND');
    const meta = await as(guest).get(`${base()}/issues/${item.id}/meta/`);
    assert.deepEqual(meta.body, { sequence_id: item.sequence_id, project_identifier: 'WEB' });
    const byIds = await as(guest).get(`${base()}/issues/list/?issues=${item.id},00000000-0000-4000-8000-000000000000`);
    assert.equal(byIds.status, 200, JSON.stringify(byIds.body));
    assert.deepEqual(
      byIds.body.map((r: { id: string }) => r.id),
      [item.id],
    );
    assertError(await as(guest).get(`${base()}/issues/list/`), 400, 'INVALID_QUERY_PARAMETER');
    const outsider = await signUp(t);
    assertError(
      await as(outsider).get(`/api/workspaces/${ws.slug}/work-items/WEB-${item.sequence_id}/`),
      404,
      'WORKSPACE_NOT_FOUND',
    );
    const secret = await createAppProject(t, admin.token, ws.slug, { identifier: 'SEC', name: 'Secret', network: 0 });
    const hidden = await create({ name: 'Hidden' }, admin, secret.id);
    assertError(
      await as(member).get(`/api/workspaces/${ws.slug}/work-items/SEC-${hidden.sequence_id}/`),
      404,
      'NOT_FOUND',
    );
  });

  it('sub-issues: adds children in one go and lists them with the state distribution', async () => {
    const parent = await create({ name: 'Epic' });
    const c1 = await create({ name: 'Child 1', state_id: states.completed });
    const c2 = await create({ name: 'Child 2', state_id: states.backlog });
    const res = await as(member).post(`${base()}/issues/${parent.id}/sub-issues/`, { sub_issue_ids: [c1.id, c2.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.sub_issues.map((s: { id: string }) => s.id),
      [c1.id, c2.id],
    );
    assert.deepEqual(res.body.state_distribution, { completed: 1, backlog: 1 });
    assert.equal((await as(member).get(`${base()}/issues/${parent.id}/`)).body.sub_issues_count, 2);
    const topLevel = (await as(member).get(`${base()}/issues/?sub_issue=false`)).body.results.map(
      (r: { id: string }) => r.id,
    );
    assert.ok(topLevel.includes(parent.id) && !topLevel.includes(c1.id) && !topLevel.includes(c2.id));
    const all = (await as(member).get(`${base()}/issues/`)).body.results.map((r: { id: string }) => r.id);
    assert.ok(all.includes(c1.id));
    // a child that cannot be one (the parent itself) rolls all back
    const c3 = await create({ name: 'Child 3' });
    assert.equal(
      (await as(member).post(`${base()}/issues/${parent.id}/sub-issues/`, { sub_issue_ids: [c3.id, parent.id] }))
        .status,
      422,
    );
    assert.equal((await as(member).get(`${base()}/issues/${c3.id}/`)).body.parent_id, null);
  });

  it('relations: relate, list as objects on both sides, remove', async () => {
    const a = await create({ name: 'Blocker' });
    const b = await create({ name: 'Blocked' });
    const c = await create({ name: 'Related' });
    const res = await as(member).post(`${base()}/issues/${a.id}/issue-relation/`, {
      relation_type: 'blocking',
      issues: [b.id],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    // Plane 0.25.3 answers a plain list of the related work items, the type as stored.
    assert.ok(Array.isArray(res.body), JSON.stringify(res.body));
    assert.equal(res.body.length, 1);
    assert.equal(res.body[0].id, b.id);
    assert.equal(res.body[0].name, 'Blocked');
    assert.equal(res.body[0].relation_type, 'blocked_by');
    assert.equal(res.body[0].sequence_id, b.sequence_id);
    assert.equal(res.body[0].project_id, b.project_id);
    const mine = await as(member).get(`${base()}/issues/${a.id}/issue-relation/`);
    assert.equal(mine.body.blocking[0].id, b.id);
    assert.equal(mine.body.blocking[0].relation_type, 'blocking');
    const plain = await as(member).post(`${base()}/issues/${b.id}/issue-relation/`, {
      relation_type: 'relates_to',
      issues: [c.id],
    });
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    assert.deepEqual(
      plain.body.map((r: { id: string; relation_type: string }) => [r.id, r.relation_type]),
      [[c.id, 'relates_to']],
    );
    // History: the empty side is "" as Plane writes it, never null.
    const hist = await as(member).get(`${base()}/issues/${a.id}/history/?activity_type=issue-property`);
    const added = hist.body.find((h: { field: string }) => h.field === 'blocking');
    assert.ok(added, JSON.stringify(hist.body));
    assert.equal(added.old_value, '');
    const other = await as(guest).get(`${base()}/issues/${b.id}/issue-relation/`);
    assert.equal(other.body.blocked_by[0].id, a.id);
    assert.equal(
      (await as(member).post(`${base()}/issues/${a.id}/remove-relation/`, { related_issue: b.id })).status,
      204,
    );
    assert.deepEqual((await as(guest).get(`${base()}/issues/${b.id}/issue-relation/`)).body.blocked_by, []);
    const after = await as(member).get(`${base()}/issues/${a.id}/history/?activity_type=issue-property`);
    const removed = after.body.find(
      (h: { field: string; verb: string }) => h.field === 'blocking' && h.verb === 'deleted',
    );
    assert.ok(removed, JSON.stringify(after.body));
    assert.equal(removed.new_value, '');
  });

  it('stores the empty side of history as "" where Plane does, null where Plane does', async () => {
    const parent = await create({ name: 'Parent' });
    const item = await create({ name: 'Child' });
    const other = await create({ name: 'Other' });
    const set = await as(member).patch(`${base()}/issues/${item.id}/`, {
      parent_id: parent.id,
      target_date: '2030-01-02',
    });
    assert.equal(set.status, 204, JSON.stringify(set.body));
    const cleared = await as(member).patch(`${base()}/issues/${item.id}/`, { parent_id: null, target_date: null });
    assert.equal(cleared.status, 204, JSON.stringify(cleared.body));
    const rel = await as(member).post(`${base()}/issues/${item.id}/issue-relation/`, {
      relation_type: 'relates_to',
      issues: [other.id],
    });
    assert.equal(rel.status, 201, JSON.stringify(rel.body));
    const gone = await as(member).post(`${base()}/issues/${item.id}/remove-relation/`, { related_issue: other.id });
    assert.equal(gone.status, 204);
    const rows = await t.sql<{ field: string; verb: string; old_value: string | null; new_value: string | null }>(
      `SELECT field, verb, old_value, new_value FROM issue_activities
        WHERE issue_id = $1 AND field IN ('parent', 'target_date', 'relates_to') ORDER BY created_at`,
      [item.id],
    );
    const key = (n: number) => `${project.identifier}-${n}`;
    assert.deepEqual(
      rows.map((r) => [r.field, r.old_value, r.new_value]),
      [
        ['target_date', '', '2030-01-02'],
        ['parent', '', key(parent.sequence_id)],
        ['target_date', '2030-01-02', ''],
        ['parent', key(parent.sequence_id), ''],
        ['relates_to', '', key(other.sequence_id)],
        ['relates_to', key(other.sequence_id), ''],
      ],
    );
  });

  it('archives a completed work item, lists and restores it; an open one is refused', async () => {
    const open = await create({ name: 'Open', state_id: states.started });
    assertError(await as(member).post(`${base()}/issues/${open.id}/archive/`), 400, 'ISSUE_NOT_ARCHIVABLE');
    const done = await create({ name: 'Finished', state_id: states.completed });
    const res = await as(member).post(`${base()}/issues/${done.id}/archive/`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.archived_at, /^\d{4}-\d{2}-\d{2}$/);
    assertError(await as(member).get(`${base()}/issues/${done.id}/`), 404, 'NOT_FOUND');
    const archived = await as(member).get(`${base()}/archived-issues/`);
    assert.deepEqual(
      archived.body.results.map((r: { id: string }) => r.id),
      [done.id],
    );
    assert.equal((await as(member).get(`${base()}/issues/${done.id}/archive/`)).body.id, done.id);
    // archived work items are for project Admins and Members (Plane's IssueArchiveViewSet)
    assertError(await as(guest).get(`${base()}/archived-issues/`), 403, 'PERMISSION_DENIED');
    assertError(await as(guest).get(`${base()}/issues/${done.id}/archive/`), 403, 'PERMISSION_DENIED');
    assert.equal((await as(member).delete(`${base()}/issues/${done.id}/archive/`)).status, 204);
    assert.equal((await as(member).get(`${base()}/issues/${done.id}/`)).status, 200);
    assertError(await as(member).delete(`${base()}/issues/${done.id}/archive/`), 404, 'NOT_FOUND');
    // bulk archive is all or nothing
    assertError(
      await as(member).post(`${base()}/bulk-archive-issues/`, { issue_ids: [done.id, open.id] }),
      400,
      'ISSUE_NOT_ARCHIVABLE',
    );
    assert.equal((await as(member).get(`${base()}/issues/${done.id}/`)).status, 200);
    assert.equal((await as(member).post(`${base()}/bulk-archive-issues/`, { issue_ids: [done.id] })).status, 200);
    assertError(await as(member).get(`${base()}/issues/${done.id}/`), 404, 'NOT_FOUND');
    const fields = await t.sql<{ field: string }>(
      `SELECT field FROM issue_activities WHERE issue_id = $1 AND field = 'archived_at'`,
      [done.id],
    );
    assert.equal(fields.length, 3);
  });

  it('bulk update applies to all or none; bulk delete needs a project Admin', async () => {
    const a = await create({ name: 'Bulk A', state_id: states.backlog });
    const b = await create({ name: 'Bulk B', state_id: states.backlog, assignee_ids: [admin.userId] });
    const ok = await as(member).post(`${base()}/bulk-operation-issues/`, {
      issue_ids: [a.id, b.id],
      properties: { state_id: states.started, priority: 'urgent', assignee_ids: [member.userId] },
    });
    assert.equal(ok.status, 204, JSON.stringify(ok.body));
    for (const id of [a.id, b.id]) {
      const got = (await as(member).get(`${base()}/issues/${id}/`)).body;
      assert.equal(got.state_id, states.started);
      assert.equal(got.priority, 'urgent');
      assert.ok(got.assignee_ids.includes(member.userId));
    }
    assert.deepEqual(
      (await as(member).get(`${base()}/issues/${b.id}/`)).body.assignee_ids.sort(),
      [admin.userId, member.userId].sort(),
    );
    // one item whose dates would cross: nothing changes
    await as(member).patch(`${base()}/issues/${b.id}/`, { target_date: '2030-01-01' });
    const bad = await as(member).post(`${base()}/bulk-operation-issues/`, {
      issue_ids: [a.id, b.id],
      properties: { priority: 'low', start_date: '2030-06-01' },
    });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal((await as(member).get(`${base()}/issues/${a.id}/`)).body.priority, 'urgent');

    assertError(
      await as(member).delete(`${base()}/bulk-delete-issues/`, { issue_ids: [a.id, b.id] }),
      403,
      'PERMISSION_DENIED',
    );
    const del = await as(admin).delete(`${base()}/bulk-delete-issues/`, { issue_ids: [a.id, b.id] });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.equal(del.body.message, '2 issues were deleted');
    assertError(await as(admin).get(`${base()}/issues/${a.id}/`), 404, 'NOT_FOUND');
  });

  it('the work item’s modules and cycle show in its values and filter the list', async () => {
    const item = await create({ name: 'Planned' });
    const [mod] = await t.sql<{ id: string }>(
      `INSERT INTO modules (workspace_id, project_id, name) VALUES ($1, $2, 'M1') RETURNING id`,
      [ws.id, project.id],
    );
    const res = await as(member).post(`${base()}/issues/${item.id}/modules/`, { modules: [mod.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await as(member).get(`${base()}/issues/${item.id}/`)).body.module_ids, [mod.id]);
    const listed = await as(member).get(`${base()}/issues/?module=${mod.id}`);
    assert.deepEqual(
      listed.body.results.map((r: { id: string }) => r.id),
      [item.id],
    );
    const grouped = await as(member).get(`${base()}/issues/?group_by=issue_module__module_id`);
    assert.equal(grouped.body.results[mod.id].total_results, 1);
    assert.ok(grouped.body.results.None.total_results > 0);
    assert.equal(
      (await as(member).post(`${base()}/issues/${item.id}/modules/`, { removed_modules: [mod.id] })).status,
      200,
    );
    assert.deepEqual((await as(member).get(`${base()}/issues/${item.id}/`)).body.module_ids, []);
    assertError(
      await as(member).post(`${base()}/issues/${item.id}/modules/`, {
        modules: ['00000000-0000-4000-8000-000000000000'],
      }),
      404,
      'NOT_FOUND',
    );
    const [cycle] = await t.sql<{ id: string }>(
      `INSERT INTO cycles (workspace_id, project_id, name, owned_by_id) VALUES ($1, $2, 'C1', $3) RETURNING id`,
      [ws.id, project.id, admin.userId],
    );
    await t.sql('INSERT INTO cycle_issues (workspace_id, project_id, cycle_id, issue_id) VALUES ($1, $2, $3, $4)', [
      ws.id,
      project.id,
      cycle.id,
      item.id,
    ]);
    assert.equal((await as(member).get(`${base()}/issues/${item.id}/`)).body.cycle_id, cycle.id);
    assert.deepEqual(
      (await as(member).get(`${base()}/issues/?cycle=${cycle.id}`)).body.results.map((r: { id: string }) => r.id),
      [item.id],
    );
    assert.ok(
      !(await as(member).get(`${base()}/issues/?cycle=None`)).body.results.some(
        (r: { id: string }) => r.id === item.id,
      ),
    );
    // `null` is dropped (Plane's `item != "null"`): no filter, the cycle's work item is listed
    assert.ok(
      (await as(member).get(`${base()}/issues/?cycle=null`)).body.results.some((r: { id: string }) => r.id === item.id),
    );
  });

  it('deleting: only the creator or a project Admin', async () => {
    const mine = await create({ name: 'Mine' }, member);
    const theirs = await create({ name: 'Theirs' }, admin);
    assertError(await as(member).delete(`${base()}/issues/${theirs.id}/`), 403, 'PERMISSION_DENIED');
    assert.equal((await as(member).delete(`${base()}/issues/${mine.id}/`)).status, 204);
    assert.equal((await as(admin).delete(`${base()}/issues/${theirs.id}/`)).status, 204);
  });

  it('ids of another workspace or project are 404, even for that workspace’s Admin', async () => {
    const item = await create({ name: 'Mine only' });
    const c = await as(admin).post(`${base()}/issues/${item.id}/comments/`, { comment_html: '<p>c</p>' });
    const stranger = await signUp(t);
    const other = await createWorkspace(t, stranger.token);
    const op = await createAppProject(t, stranger.token, other.slug, { identifier: 'OTH' });
    const foreign = `/api/workspaces/${other.slug}/projects/${op.id}`;
    const calls: Array<[string, string, object?]> = [
      ['get', `${foreign}/issues/${item.id}/`],
      ['patch', `${foreign}/issues/${item.id}/`, { name: 'x' }],
      ['delete', `${foreign}/issues/${item.id}/`],
      ['get', `${foreign}/issues/${item.id}/comments/`],
      ['get', `${foreign}/issues/${item.id}/comments/${c.body.id}/`],
      ['get', `${foreign}/issues/${item.id}/history/`],
      ['get', `${foreign}/issues/${item.id}/sub-issues/`],
      ['get', `${foreign}/issues/${item.id}/issue-relation/`],
      ['get', `${foreign}/issues/${item.id}/reactions/`],
      ['get', `${foreign}/comments/${c.body.id}/reactions/`],
      ['post', `${foreign}/comments/${c.body.id}/reactions/`, { reaction: '1' }],
      ['post', `${foreign}/issues/${item.id}/archive/`],
      ['post', `${foreign}/issues/${item.id}/issue-links/`, { url: 'https://example.com' }],
      ['get', `/api/workspaces/${other.slug}/projects/${project.id}/issues/`],
      ['get', `/api/workspaces/${ws.slug}/projects/${op.id}/issues/`],
    ];
    for (const [method, url, body] of calls) {
      const req = t.api[method as 'get'](url).auth(stranger.token, { type: 'bearer' });
      const res = body ? await req.send(body) : await req;
      assert.equal(res.status, 404, `${method} ${url}: ${JSON.stringify(res.body)}`);
    }
    // an item of another project of the same workspace, through this project's routes
    const second = await createAppProject(t, admin.token, ws.slug, { identifier: 'TWO' });
    const there = await create({ name: 'There' }, admin, second.id);
    assertError(await as(admin).get(`${base()}/issues/${there.id}/`), 404, 'NOT_FOUND');
    assertError(await as(admin).get(`${base()}/issues/${there.id}/comments/`), 404, 'NOT_FOUND');
    assertError(
      await as(admin).get(`/api/workspaces/${ws.slug}/projects/${second.id}/issues/${item.id}/comments/${c.body.id}/`),
      404,
      'NOT_FOUND',
    );
    assertError(
      await as(admin).get(`/api/workspaces/${ws.slug}/projects/${second.id}/comments/${c.body.id}/reactions/`),
      404,
      'NOT_FOUND',
    );
    assert.equal(
      (
        await as(admin).post(`${base()}/bulk-operation-issues/`, {
          issue_ids: [item.id, there.id],
          properties: { priority: 'low' },
        })
      ).status,
      422,
    );
    assert.equal((await as(admin).get(`${base()}/issues/${item.id}/`)).body.name, 'Mine only');
  });
});

/**
 * A Member may not use a work item of a secret project they are not in as a parent or a relation
 * of their own: it would show its key through `expand=parent` and the history. Refused the same on
 * the App API and the External API (one rule, in the domain).
 */
describe('parents and relations only from projects the caller is in (both APIs)', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let ws: { id: string; slug: string };
  let open: { id: string };
  let secretItem: { id: string };
  let key: string;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    admin = await signUp(t);
    member = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 20);
    const res = await t.api
      .post(`/api/workspaces/${ws.slug}/api-tokens/`)
      .auth(member.token, { type: 'bearer' })
      .send({ label: 'k' });
    key = res.body.token;
    await t.sql('UPDATE workspace_members SET role = 15 WHERE workspace_id = $1 AND member_id = $2', [
      ws.id,
      member.userId,
    ]);
    open = await createAppProject(t, admin.token, ws.slug, { identifier: 'OPEN', network: 2 });
    await addProjectMember(t, ws.id, open.id, member.userId, 15);
    const secret = await createAppProject(t, admin.token, ws.slug, { identifier: 'SECR', network: 0 });
    secretItem = (
      await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${secret.id}/issues/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ name: 'Secret plan' })
    ).body;
  });
  after(() => t.close());

  const app = (path: string) => `/api/workspaces/${ws.slug}/projects/${open.id}/${path}`;
  const v1 = (path: string) => `/api/v1/workspaces/${ws.slug}/projects/${open.id}/${path}`;

  it('App API: create and update with a secret parent are 422; nothing leaks', async () => {
    const created = await t.api
      .post(app('issues/'))
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'Mine', parent_id: secretItem.id });
    assert.equal(created.status, 422, JSON.stringify(created.body));
    const mine = (await t.api.post(app('issues/')).auth(member.token, { type: 'bearer' }).send({ name: 'Mine' })).body;
    const patched = await t.api
      .patch(app(`issues/${mine.id}/`))
      .auth(member.token, { type: 'bearer' })
      .send({ parent_id: secretItem.id });
    assert.equal(patched.status, 422, JSON.stringify(patched.body));
    const rel = await t.api
      .post(app(`issues/${mine.id}/issue-relation/`))
      .auth(member.token, { type: 'bearer' })
      .send({ relation_type: 'relates_to', issues: [secretItem.id] });
    assert.equal(rel.status, 422, JSON.stringify(rel.body));
    const history = await t.sql<{ n: string }>(
      `SELECT COUNT(*) AS n FROM issue_activities WHERE new_identifier = $1 OR new_value LIKE 'SECR-%'`,
      [secretItem.id],
    );
    assert.equal(Number(history[0].n), 0);
  });

  it('External API: the same refusals', async () => {
    const created = await t.api.post(v1('issues/')).set('X-API-Key', key).send({ name: 'Mine', parent: secretItem.id });
    assert.equal(created.status, 422, JSON.stringify(created.body));
    const mine = (await t.api.post(v1('issues/')).set('X-API-Key', key).send({ name: 'Mine' })).body;
    const patched = await t.api
      .patch(v1(`issues/${mine.id}/`))
      .set('X-API-Key', key)
      .send({ parent: secretItem.id });
    assert.equal(patched.status, 422, JSON.stringify(patched.body));
    const rel = await t.api
      .post(v1(`work-items/${mine.id}/relations/`))
      .set('X-API-Key', key)
      .send({ relation_type: 'blocking', issues: [secretItem.id] });
    assert.equal(rel.status, 422, JSON.stringify(rel.body));
    const expanded = await t.api.get(v1(`issues/${mine.id}/?expand=parent`)).set('X-API-Key', key);
    assert.deepEqual(expanded.body.parent, {});
  });

  it('a parent in another project the caller is a member of is still accepted, and in the same project', async () => {
    const other = await createAppProject(t, admin.token, ws.slug, { identifier: 'OTHR', network: 2 });
    await addProjectMember(t, ws.id, other.id, member.userId, 5);
    const there = (
      await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${other.id}/issues/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ name: 'There' })
    ).body;
    const res = await t.api
      .post(app('issues/'))
      .auth(member.token, { type: 'bearer' })
      .send({ name: 'Child', parent_id: there.id });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.parent_id, there.id);
    // the Admin, a member of the secret project, may
    const adminChild = await t.api
      .post(app('issues/'))
      .auth(admin.token, { type: 'bearer' })
      .send({ name: 'Admin child', parent_id: secretItem.id });
    assert.equal(adminChild.status, 201, JSON.stringify(adminChild.body));
  });
});
